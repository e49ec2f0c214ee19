-- Issue 28: fewer index entries per drained episode. The start (pending -> running) and the end
-- (running -> completed) change `status`, so neither update is HOT, and each adds an entry to
-- every index whose predicate the new row version satisfies (a partial index the new version
-- does not match gets nothing). `pnpm bench --quick` measured 17 entries per drained item on
-- this table before this migration (docs/benchmarks.md, "Indexes of cyclium_episodes").
--
-- Running is the state an episode passes through: the running rows are few (bounded by the
-- nodes' concurrency), and every read of them comes through the running index below. So the
-- status list index leaves running rows out (the start update writes no entry to it), and a
-- list or count of running episodes reads the running index instead.
--
-- Index drops only, no column or table change: a node of the previous release keeps running on
-- a migrated database (its queries stay correct; the console's per-status counts of such a
-- node plan less well until it is upgraded).

-- Console list filtered by status, per-status counts (now one literal status per count, so each
-- proves the predicate). status = 'running' reads cyclium_episodes_running_idx.
DROP INDEX "cyclium_episodes_env_status_inserted_at_id_idx";
CREATE INDEX "cyclium_episodes_env_status_inserted_at_id_idx"
    ON "cyclium_episodes"("source_env", "status", "inserted_at" DESC, "id" DESC)
    WHERE "status" <> 'running';

-- Every running episode (running episodes are never archived: archiving takes finished ones), in
-- the console list's order, so the list and count of running episodes walk it as they walked the
-- status index (the list bench seeds 30,000 running episodes: a bitmap and a sort of those took
-- ~100 ms). The recovery sweep, the lease list and the recovery overview read every running row
-- through it, as they read the (started_at) index it replaces (nothing ordered by started_at;
-- their archived_at IS NULL is implied by the new predicate). Still one entry, at the start.
DROP INDEX "cyclium_episodes_running_idx";
CREATE INDEX "cyclium_episodes_running_idx"
    ON "cyclium_episodes"("source_env", "inserted_at" DESC, "id" DESC)
    WHERE "status" = 'running';

-- Kept whole: cyclium_episodes_input_idx (GIN input jsonb_path_ops). Leaving running episodes
-- out of it saved the start's entry, but a search must then read the running ones from the heap:
-- with the list bench's 30,000 running episodes of 1,000,000 a one-order search went from 4.5
-- to 108-163 ms (apps/web/bench, docs/benchmarks.md).

-- Kept apart: the pruner's (actor_id, finished_at) WHERE status IN (final statuses) and the actor
-- charts' (source_env, actor_id, finished_at) INCLUDE (...) WHERE finished_at IS NOT NULL. One
-- (actor_id, finished_at) INCLUDE (source_env, status, inserted_at, started_at) index served both
-- and saved the end's second entry, but it is twice as wide as the pruner's, and the list's count
-- of an actor's expectation's failed episodes no longer ANDed it with the status index: 16 -> 87
-- ms p95 on the list bench's 1,000,000 episodes (docs/benchmarks.md).
