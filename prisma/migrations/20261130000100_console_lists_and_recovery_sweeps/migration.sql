-- Console lists other than episodes: env-scoped, newest first, keyset on (inserted_at, id).
-- Like the episode list they order by the env column first (IS NULL is not an equality; see
-- 20261130000000_console_episode_list_indexes).
CREATE INDEX "cyclium_trigger_requests_env_inserted_at_id_idx"
    ON "cyclium_trigger_requests"("source_env", "inserted_at" DESC, "id" DESC);
CREATE INDEX "cyclium_workflow_instances_env_inserted_at_id_idx"
    ON "cyclium_workflow_instances"("source_env", "inserted_at" DESC, "id" DESC);
CREATE INDEX "cyclium_findings_env_status_updated_at_id_idx"
    ON "cyclium_findings"("env", "status", "updated_at" DESC, "id" DESC);

-- Past recovery sweeps for the console's Recovery page (SPEC section 5 emits each sweep's counts
-- as `cyclium.recovery.sweep`; this keeps them). `trigger` is `manual` for a sweep an operator
-- started from the console (`requested_by` names them) and `scheduled` for a node's timer.
CREATE TABLE "cyclium_recovery_sweeps" (
    "id" BIGSERIAL NOT NULL,
    "node" VARCHAR(255) NOT NULL,
    "trigger" VARCHAR(16) NOT NULL,
    "requested_by" VARCHAR(255),
    "source_stack" VARCHAR(255),
    "source_env" VARCHAR(255),
    "found" INTEGER NOT NULL DEFAULT 0,
    "claimed" INTEGER NOT NULL DEFAULT 0,
    "restarted" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "reconciled" INTEGER NOT NULL DEFAULT 0,
    "duration_ms" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "inserted_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "cyclium_recovery_sweeps_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "cyclium_recovery_sweeps_trigger_check" CHECK ("trigger" IN ('manual', 'scheduled'))
);
CREATE INDEX "cyclium_recovery_sweeps_env_inserted_at_id_idx"
    ON "cyclium_recovery_sweeps"("source_env", "inserted_at" DESC, "id" DESC);
