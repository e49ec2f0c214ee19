-- Failures you can investigate (issue 14): every attempt of an episode that ended without
-- completing keeps its error here, written by core in the same statement that fails the
-- episode (the runner's end, recovery's fail or restart of an orphan). A retry clears the
-- episode's error_class / error_message for its next run; this row stays. One row per
-- (episode, attempt): a resent end finds its row and writes nothing. The message is clipped to
-- 8,000 characters and the stack to 16,000, so an episode's history stays bounded by its
-- attempts. The rows go with their episode (ON DELETE CASCADE), so retention prunes them too.
CREATE TABLE "cyclium_episode_attempts" (
    "id" BIGSERIAL NOT NULL,
    "episode_id" UUID NOT NULL,
    "attempt" INTEGER NOT NULL,
    "outcome" VARCHAR(32) NOT NULL,
    "error_class" VARCHAR(255) NOT NULL,
    "error_message" TEXT,
    "error_stack" TEXT,
    "node" VARCHAR(255),
    "inserted_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "cyclium_episode_attempts_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "cyclium_episode_attempts_episode_attempt_key" ON "cyclium_episode_attempts"("episode_id", "attempt");
ALTER TABLE "cyclium_episode_attempts" ADD CONSTRAINT "cyclium_episode_attempts_episode_id_fkey"
    FOREIGN KEY ("episode_id") REFERENCES "cyclium_episodes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
