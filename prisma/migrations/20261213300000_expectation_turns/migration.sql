-- Issue 30: an expectation's schedule or poll runs on claimed turns, as a deployment trigger does
-- (cyclium_triggers.next_fire_at, triggers/claim-trigger-turn.ts): one row per expectation and
-- env; the node whose conditional UPDATE moves `next_fire_at` on runs the turn. Expand-only.
CREATE TABLE "cyclium_expectation_turns" (
    "id" BIGSERIAL NOT NULL,
    "actor_id" VARCHAR(255) NOT NULL,
    "expectation_id" VARCHAR(255) NOT NULL,
    "env" VARCHAR(255),
    "rule" VARCHAR(255) NOT NULL,
    "next_fire_at" TIMESTAMPTZ(6),
    "last_fire_at" TIMESTAMPTZ(6),
    "inserted_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "cyclium_expectation_turns_pkey" PRIMARY KEY ("id")
);
-- SQL-only: one row per expectation and env, an unset env (NULL) counting as one env.
CREATE UNIQUE INDEX "cyclium_expectation_turns_expectation_env_key"
    ON "cyclium_expectation_turns"("actor_id", "expectation_id", "env") NULLS NOT DISTINCT;
