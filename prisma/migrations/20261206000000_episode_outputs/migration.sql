-- The output router (issue 20): what a strategy hands on with `ctx.output(key?, value)`, written
-- exactly once per output key across re-runs and nodes. The unique index is the whole mechanism:
-- every attempt writes with INSERT ... ON CONFLICT DO NOTHING, so a re-run after a steal finds
-- the first attempt's row instead of writing a second one. Keys are env-folded (`@{env}`), so
-- each env writes its own outputs.
CREATE TABLE "cyclium_episode_outputs" (
    "id" BIGSERIAL NOT NULL,
    "output_key" VARCHAR(512) NOT NULL,
    "episode_id" UUID NOT NULL,
    "attempt" INTEGER NOT NULL,
    "actor_id" VARCHAR(255) NOT NULL,
    "value" JSONB NOT NULL,
    "env" VARCHAR(255),
    "inserted_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "cyclium_episode_outputs_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "cyclium_episode_outputs_output_key_key" ON "cyclium_episode_outputs"("output_key");
-- The episode detail page lists an episode's outputs, and the pruner's cascade finds them.
CREATE INDEX "cyclium_episode_outputs_episode_id_inserted_at_idx" ON "cyclium_episode_outputs"("episode_id", "inserted_at");
ALTER TABLE "cyclium_episode_outputs" ADD CONSTRAINT "cyclium_episode_outputs_episode_id_fkey"
    FOREIGN KEY ("episode_id") REFERENCES "cyclium_episodes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
