-- Issue 32: durable waits (SPEC section 17). A strategy's step may return wait(...) or
-- waitFor(...): the episode checkpoints its state and goes `waiting`, holding no claim, no lease
-- and no slot; a trigger request due at its wake time (or at once when a signal arrives) starts
-- it again on any full node through the one start path every episode takes.
--
-- Expand-only: the status check is widened (an older node never writes `waiting`), and the two
-- tables are new. A node of the previous release that claims a waiting episode's request finds it
-- not pending and completes the request: upgrade every node before a strategy returns wait.
ALTER TABLE "cyclium_episodes" DROP CONSTRAINT IF EXISTS "cyclium_episodes_status_check";
ALTER TABLE "cyclium_episodes" ADD CONSTRAINT "cyclium_episodes_status_check"
    CHECK ("status" IN ('pending', 'running', 'waiting', 'completed', 'failed', 'cancelled'))
    NOT VALID;
ALTER TABLE "cyclium_episodes" VALIDATE CONSTRAINT "cyclium_episodes_status_check";

-- An episode's current (or last) wait: one row per episode, overwritten by its next wait. Kept
-- after the wake so that a run restarted before its next checkpoint gets the same wake-up.
CREATE TABLE "cyclium_episode_waits" (
    "episode_id" UUID NOT NULL,
    "kind" VARCHAR(16) NOT NULL,
    "signal" VARCHAR(255),
    "step_no" INTEGER NOT NULL,
    "attempt" INTEGER NOT NULL,
    "wall_used_ms" INTEGER NOT NULL DEFAULT 0,
    "since" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
    "wake_at" TIMESTAMPTZ(6),
    "woken_at" TIMESTAMPTZ(6),
    CONSTRAINT "cyclium_episode_waits_pkey" PRIMARY KEY ("episode_id"),
    CONSTRAINT "cyclium_episode_waits_kind_check" CHECK ("kind" IN ('sleep', 'signal')),
    CONSTRAINT "cyclium_episode_waits_episode_id_fkey" FOREIGN KEY ("episode_id")
        REFERENCES "cyclium_episodes"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "cyclium_episode_waits_signal_idx" ON "cyclium_episode_waits"("signal");

-- Signals sent to an episode, kept until a waitFor of that name consumes them (oldest first),
-- so one sent before the wait is not lost. (episode, name, idempotency key) is unique: a second
-- delivery with the same key changes nothing. `consumed_step` is the wait's step: a resumed run
-- that repeats the wake-up finds the same signal again instead of consuming another.
CREATE TABLE "cyclium_signals" (
    "id" BIGSERIAL NOT NULL,
    "episode_id" UUID NOT NULL,
    "name" VARCHAR(255) NOT NULL,
    "payload" JSONB NOT NULL DEFAULT 'null',
    "idempotency_key" VARCHAR(255),
    "sent_by" VARCHAR(255) NOT NULL,
    "inserted_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
    "consumed_at" TIMESTAMPTZ(6),
    "consumed_step" INTEGER,
    CONSTRAINT "cyclium_signals_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "cyclium_signals_episode_id_fkey" FOREIGN KEY ("episode_id")
        REFERENCES "cyclium_episodes"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "cyclium_signals_idempotency_key"
    ON "cyclium_signals"("episode_id", "name", "idempotency_key");
CREATE INDEX "cyclium_signals_episode_name_idx" ON "cyclium_signals"("episode_id", "name", "id");
