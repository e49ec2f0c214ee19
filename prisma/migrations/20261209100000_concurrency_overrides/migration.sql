-- An actor's maxConcurrentEpisodes changed live from the console, per node (issue 14 item 6). Its
-- own table rather than a column of cyclium_mode_overrides: a limit has no mode and a mode no
-- limit, and a nullable pair would let a row say neither. Nodes read the rows for '*' and their
-- identity with their mode overrides, on the same NOTIFY channel (cyclium_modes), and apply a new
-- limit without a restart; a node's own row beats '*', and without a row the actor definition's
-- maxConcurrentEpisodes holds. 1..10000 is the definition's own range.
CREATE TABLE "cyclium_concurrency_overrides" (
    "id" BIGSERIAL NOT NULL,
    "target_node" VARCHAR(255) NOT NULL,
    "actor_id" VARCHAR(255) NOT NULL,
    "max_concurrent_episodes" INTEGER NOT NULL,
    "set_by" VARCHAR(255),
    "inserted_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "cyclium_concurrency_overrides_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "cyclium_concurrency_overrides_max_check"
        CHECK ("max_concurrent_episodes" BETWEEN 1 AND 10000)
);
CREATE UNIQUE INDEX "cyclium_concurrency_overrides_target_actor_key"
    ON "cyclium_concurrency_overrides"("target_node", "actor_id");
