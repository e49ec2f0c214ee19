-- Retention (SPEC section 14, docs/retention.md): the pruner deletes finished history by age, in
-- bounded batches, oldest first. Each batch finds its rows through one of these indexes, so the
-- cost of a batch depends on the batch, not on how much history is kept.

-- SQL-only (partial): finished episodes of one actor, oldest first. The pruner walks each actor
-- on its own (an actor may have its own age, CYCLIUM_RETENTION_EPISODES_BY_ACTOR); running and
-- pending episodes are not in it at all.
CREATE INDEX "cyclium_episodes_finished_idx"
    ON "cyclium_episodes"("actor_id", "finished_at")
    WHERE "status" IN ('completed', 'failed', 'cancelled');

-- An episode an active finding still points at is kept (SQL-only, partial: active findings are few).
CREATE INDEX "cyclium_findings_active_episode_idx"
    ON "cyclium_findings"("episode_id")
    WHERE "status" = 'active';
-- SQL-only (partial): cleared findings by age.
CREATE INDEX "cyclium_findings_cleared_at_idx"
    ON "cyclium_findings"("cleared_at")
    WHERE "status" = 'cleared';

-- Finished claims by age: the existing (updated_at DESC, id DESC) index serves the pruner too.
-- Finished workflow instances by age (SQL-only, partial).
CREATE INDEX "cyclium_workflow_instances_finished_idx"
    ON "cyclium_workflow_instances"("finished_at")
    WHERE "status" IN ('done', 'failed', 'cancelled');
CREATE INDEX "cyclium_trigger_firings_inserted_at_idx" ON "cyclium_trigger_firings"("inserted_at");
CREATE INDEX "cyclium_recovery_sweeps_inserted_at_idx" ON "cyclium_recovery_sweeps"("inserted_at");
CREATE INDEX "cyclium_sessions_expires_at_idx" ON "cyclium_sessions"("expires_at");

-- Per-hour telemetry rollups: before per-minute rows pass their age, the pruner sums each whole
-- hour of them here (in the same transaction as their delete), so charts over months stay
-- possible at 1/60 of the rows.
CREATE TABLE "cyclium_telemetry_hourly" (
    "id" BIGSERIAL NOT NULL,
    "bucket" TIMESTAMPTZ(6) NOT NULL,
    "event" VARCHAR(128) NOT NULL,
    "node" VARCHAR(255) NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,
    "sum_ms" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "max_ms" DOUBLE PRECISION NOT NULL DEFAULT 0,
    CONSTRAINT "cyclium_telemetry_hourly_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "cyclium_telemetry_hourly_bucket_event_node_key"
    ON "cyclium_telemetry_hourly"("bucket", "event", "node");
CREATE INDEX "cyclium_telemetry_hourly_event_bucket_idx"
    ON "cyclium_telemetry_hourly"("event", "bucket");

-- One row per pruner run, for the console's Recovery page: the policies it applied (`policies`,
-- ages in ms, null = kept) and how many rows it removed per family (`deleted`). `trigger` is
-- `scheduled` (a worker's timer), `manual` (console) or `cli` (`cyclium prune`).
CREATE TABLE "cyclium_pruner_runs" (
    "id" BIGSERIAL NOT NULL,
    "node" VARCHAR(255) NOT NULL,
    "trigger" VARCHAR(16) NOT NULL,
    "requested_by" VARCHAR(255),
    "status" VARCHAR(16) NOT NULL,
    "policies" JSONB NOT NULL DEFAULT '{}',
    "deleted" JSONB NOT NULL DEFAULT '{}',
    "total_deleted" BIGINT NOT NULL DEFAULT 0,
    "batches" INTEGER NOT NULL DEFAULT 0,
    "duration_ms" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "inserted_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "cyclium_pruner_runs_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "cyclium_pruner_runs_trigger_check" CHECK ("trigger" IN ('scheduled', 'manual', 'cli')),
    CONSTRAINT "cyclium_pruner_runs_status_check" CHECK ("status" IN ('completed', 'interrupted'))
);
CREATE INDEX "cyclium_pruner_runs_inserted_at_id_idx"
    ON "cyclium_pruner_runs"("inserted_at" DESC, "id" DESC);
