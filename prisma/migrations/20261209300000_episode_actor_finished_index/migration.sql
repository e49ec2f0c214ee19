-- The console's per-actor charts (issue 14, docs/console-actor-charts.md) read the episodes one
-- actor finished in a range (1 h to 7 d) and bucket them by finished_at: throughput by outcome,
-- queue wait (inserted_at -> started_at) and run time (started_at -> finished_at) percentiles.
-- The (source_env, actor_id, inserted_at) index cannot bound finished_at: an episode finished in
-- the range may have been created any time before it. This index walks exactly the range, and
-- INCLUDE carries what the percentiles need so the read can stay inside the index.
-- Partial (finished episodes only): a pending or running episode has no entry, so the updates
-- while it runs (phase, updated_at) stay HOT; the one update that finishes an episode already
-- changes status, which other indexes carry, so it was never HOT.
CREATE INDEX "cyclium_episodes_env_actor_finished_at_idx"
    ON "cyclium_episodes"("source_env", "actor_id", "finished_at")
    INCLUDE ("status", "inserted_at", "started_at")
    WHERE "finished_at" IS NOT NULL;
