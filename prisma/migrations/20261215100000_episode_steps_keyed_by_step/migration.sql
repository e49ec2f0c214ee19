-- Issue 28: a journal step is found by (episode_id, attempt, step_no), never by its id: the
-- journal's idempotent insert, recovery's newest step and the episode detail all read the unique
-- index. The id's own primary-key index cost every step (one per drained item) an entry. The
-- unique index becomes the primary key, keeping its name's meaning under the table's pkey name;
-- the id column stays, filled by its sequence, for readers that show it. Old nodes insert and
-- read as before: ON CONFLICT (episode_id, attempt, step_no) infers the new primary key.
ALTER TABLE "cyclium_episode_steps" DROP CONSTRAINT "cyclium_episode_steps_pkey";
ALTER TABLE "cyclium_episode_steps"
    ADD CONSTRAINT "cyclium_episode_steps_pkey"
    PRIMARY KEY USING INDEX "cyclium_episode_steps_episode_attempt_step_key";
