-- Cyclium's initial schema. Kept in Prisma's migration layout; applied by packages/db's migrator.
-- Indexes Prisma's schema language cannot express are marked "SQL-only".

CREATE TABLE "cyclium_episodes" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "actor_id" VARCHAR(255) NOT NULL,
    "expectation_id" VARCHAR(255) NOT NULL,
    "status" VARCHAR(32) NOT NULL,
    "phase" VARCHAR(64),
    "trigger_type" VARCHAR(32) NOT NULL,
    "dedupe_key" VARCHAR(512),
    "input" JSONB NOT NULL DEFAULT '{}',
    "result" JSONB,
    "error_class" VARCHAR(255),
    "error_message" TEXT,
    "attempt" INTEGER NOT NULL DEFAULT 1,
    "turns_used" INTEGER NOT NULL DEFAULT 0,
    "tokens_used" BIGINT NOT NULL DEFAULT 0,
    "source_node" VARCHAR(255),
    "source_stack" VARCHAR(255),
    "source_env" VARCHAR(255),
    "executed_by" VARCHAR(255),
    "workflow_instance_id" UUID,
    "workflow_step" VARCHAR(255),
    "recovery_history" JSONB NOT NULL DEFAULT '[]',
    "inserted_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(6),
    "finished_at" TIMESTAMPTZ(6),
    "archived_at" TIMESTAMPTZ(6),
    CONSTRAINT "cyclium_episodes_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "cyclium_episodes_status_check"
        CHECK ("status" IN ('pending', 'running', 'completed', 'failed', 'cancelled')),
    CONSTRAINT "cyclium_episodes_trigger_type_check"
        CHECK ("trigger_type" IN ('schedule', 'event', 'poll', 'manual', 'workflow'))
);

CREATE INDEX "cyclium_episodes_inserted_at_id_idx" ON "cyclium_episodes"("inserted_at" DESC, "id" DESC);
CREATE INDEX "cyclium_episodes_status_inserted_at_id_idx" ON "cyclium_episodes"("status", "inserted_at" DESC, "id" DESC);
CREATE INDEX "cyclium_episodes_actor_expectation_inserted_at_id_idx" ON "cyclium_episodes"("actor_id", "expectation_id", "inserted_at" DESC, "id" DESC);
CREATE INDEX "cyclium_episodes_source_env_inserted_at_id_idx" ON "cyclium_episodes"("source_env", "inserted_at" DESC, "id" DESC);
CREATE INDEX "cyclium_episodes_workflow_instance_id_idx" ON "cyclium_episodes"("workflow_instance_id");
-- SQL-only: exactly one live episode per dedupe key; archived episodes do not block re-triggering.
CREATE UNIQUE INDEX "cyclium_episodes_dedupe_key_live_key" ON "cyclium_episodes"("dedupe_key")
    WHERE "dedupe_key" IS NOT NULL AND "archived_at" IS NULL;
-- SQL-only: the recovery sweep scans only running, unarchived episodes.
CREATE INDEX "cyclium_episodes_running_idx" ON "cyclium_episodes"("started_at")
    WHERE "status" = 'running' AND "archived_at" IS NULL;

CREATE TABLE "cyclium_episode_steps" (
    "id" BIGSERIAL NOT NULL,
    "episode_id" UUID NOT NULL,
    "attempt" INTEGER NOT NULL,
    "step_no" INTEGER NOT NULL,
    "outcome" VARCHAR(32) NOT NULL,
    "data" JSONB,
    "turns" INTEGER NOT NULL DEFAULT 0,
    "tokens" INTEGER NOT NULL DEFAULT 0,
    "duration_ms" INTEGER NOT NULL DEFAULT 0,
    "node" VARCHAR(255),
    "inserted_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "cyclium_episode_steps_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "cyclium_episode_steps_episode_attempt_step_key" ON "cyclium_episode_steps"("episode_id", "attempt", "step_no");
CREATE INDEX "cyclium_episode_steps_episode_id_inserted_at_idx" ON "cyclium_episode_steps"("episode_id", "inserted_at");
ALTER TABLE "cyclium_episode_steps" ADD CONSTRAINT "cyclium_episode_steps_episode_id_fkey"
    FOREIGN KEY ("episode_id") REFERENCES "cyclium_episodes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "cyclium_episode_checkpoints" (
    "id" BIGSERIAL NOT NULL,
    "episode_id" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "phase" VARCHAR(255) NOT NULL,
    "schema_version" INTEGER NOT NULL DEFAULT 1,
    "state" JSONB NOT NULL,
    "inserted_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "cyclium_episode_checkpoints_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "cyclium_episode_checkpoints_episode_number_key" ON "cyclium_episode_checkpoints"("episode_id", "number");
ALTER TABLE "cyclium_episode_checkpoints" ADD CONSTRAINT "cyclium_episode_checkpoints_episode_id_fkey"
    FOREIGN KEY ("episode_id") REFERENCES "cyclium_episodes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "cyclium_work_claims" (
    "id" BIGSERIAL NOT NULL,
    "dedupe_key" VARCHAR(512) NOT NULL,
    "state" VARCHAR(32) NOT NULL,
    "owner_node" VARCHAR(255) NOT NULL,
    "lease_until" TIMESTAMPTZ(6) NOT NULL,
    "attempt" INTEGER NOT NULL DEFAULT 1,
    "steals" INTEGER NOT NULL DEFAULT 0,
    "error_detail" TEXT,
    "inserted_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "cyclium_work_claims_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "cyclium_work_claims_state_check" CHECK ("state" IN ('claimed', 'done', 'failed', 'expired'))
);
CREATE UNIQUE INDEX "cyclium_work_claims_dedupe_key_key" ON "cyclium_work_claims"("dedupe_key");
CREATE INDEX "cyclium_work_claims_state_lease_until_idx" ON "cyclium_work_claims"("state", "lease_until");
CREATE INDEX "cyclium_work_claims_updated_at_id_idx" ON "cyclium_work_claims"("updated_at" DESC, "id" DESC);

CREATE TABLE "cyclium_trigger_requests" (
    "id" BIGSERIAL NOT NULL,
    "episode_id" UUID NOT NULL,
    "actor_id" VARCHAR(255) NOT NULL,
    "expectation_id" VARCHAR(255) NOT NULL,
    "source_node" VARCHAR(255),
    "source_stack" VARCHAR(255),
    "source_env" VARCHAR(255),
    "status" VARCHAR(32) NOT NULL,
    "opts" JSONB NOT NULL DEFAULT '{}',
    "claimed_by" VARCHAR(255),
    "claimed_at" TIMESTAMPTZ(6),
    "completed_at" TIMESTAMPTZ(6),
    "inserted_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "cyclium_trigger_requests_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "cyclium_trigger_requests_status_check"
        CHECK ("status" IN ('pending', 'claimed', 'completed', 'expired'))
);
CREATE INDEX "cyclium_trigger_requests_status_inserted_at_idx" ON "cyclium_trigger_requests"("status", "inserted_at");
CREATE INDEX "cyclium_trigger_requests_episode_id_idx" ON "cyclium_trigger_requests"("episode_id");
ALTER TABLE "cyclium_trigger_requests" ADD CONSTRAINT "cyclium_trigger_requests_episode_id_fkey"
    FOREIGN KEY ("episode_id") REFERENCES "cyclium_episodes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "cyclium_findings" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "finding_key" VARCHAR(512) NOT NULL,
    "class" VARCHAR(255) NOT NULL,
    "severity" VARCHAR(32) NOT NULL DEFAULT 'warning',
    "subject" VARCHAR(512),
    "summary" TEXT,
    "data" JSONB NOT NULL DEFAULT '{}',
    "status" VARCHAR(32) NOT NULL,
    "env" VARCHAR(255),
    "episode_id" UUID,
    "actor_id" VARCHAR(255),
    "raised_count" INTEGER NOT NULL DEFAULT 1,
    "expires_at" TIMESTAMPTZ(6),
    "cleared_at" TIMESTAMPTZ(6),
    "inserted_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "cyclium_findings_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "cyclium_findings_status_check" CHECK ("status" IN ('active', 'cleared'))
);
CREATE INDEX "cyclium_findings_status_env_class_idx" ON "cyclium_findings"("status", "env", "class");
CREATE INDEX "cyclium_findings_expires_at_idx" ON "cyclium_findings"("expires_at");
-- SQL-only: one row per (key, status, env), an unset env (NULL) counting as one env.
CREATE UNIQUE INDEX "cyclium_findings_key_status_env_key" ON "cyclium_findings"("finding_key", "status", "env") NULLS NOT DISTINCT;

CREATE TABLE "cyclium_agent_definitions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "identifier" VARCHAR(255) NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "max_concurrent_episodes" INTEGER NOT NULL DEFAULT 4,
    "expectations" JSONB NOT NULL DEFAULT '[]',
    "stacks" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "inserted_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "cyclium_agent_definitions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "cyclium_agent_definitions_identifier_key" ON "cyclium_agent_definitions"("identifier");

CREATE TABLE "cyclium_workflow_instances" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workflow_name" VARCHAR(255) NOT NULL,
    "status" VARCHAR(32) NOT NULL,
    "step_states" JSONB NOT NULL DEFAULT '{}',
    "context" JSONB NOT NULL DEFAULT '{}',
    "trigger_name" VARCHAR(255),
    "firing_id" UUID,
    "source_stack" VARCHAR(255),
    "source_env" VARCHAR(255),
    "error_message" TEXT,
    "inserted_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(6),
    CONSTRAINT "cyclium_workflow_instances_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "cyclium_workflow_instances_status_check"
        CHECK ("status" IN ('running', 'blocked', 'done', 'failed', 'cancelled'))
);
CREATE INDEX "cyclium_workflow_instances_status_updated_at_idx" ON "cyclium_workflow_instances"("status", "updated_at");
CREATE INDEX "cyclium_workflow_instances_inserted_at_id_idx" ON "cyclium_workflow_instances"("inserted_at" DESC, "id" DESC);

CREATE TABLE "cyclium_triggers" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" VARCHAR(255) NOT NULL,
    "env" VARCHAR(255),
    "kind" VARCHAR(16) NOT NULL,
    "cron" VARCHAR(255),
    "timezone" VARCHAR(64),
    "poll_interval_ms" INTEGER,
    "workflow" VARCHAR(255) NOT NULL,
    "catch_up" VARCHAR(16) NOT NULL DEFAULT 'skip',
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "paused_by" VARCHAR(255),
    "paused_at" TIMESTAMPTZ(6),
    "next_fire_at" TIMESTAMPTZ(6),
    "last_fire_at" TIMESTAMPTZ(6),
    "inserted_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "cyclium_triggers_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "cyclium_triggers_kind_check" CHECK ("kind" IN ('cron', 'poll')),
    CONSTRAINT "cyclium_triggers_catch_up_check" CHECK ("catch_up" IN ('skip', 'latest'))
);
-- SQL-only: one trigger of a name per env, an unset env (NULL) counting as one env.
CREATE UNIQUE INDEX "cyclium_triggers_name_env_key" ON "cyclium_triggers"("name", "env") NULLS NOT DISTINCT;

CREATE TABLE "cyclium_trigger_firings" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "trigger_id" UUID NOT NULL,
    "trigger_name" VARCHAR(255) NOT NULL,
    "env" VARCHAR(255),
    "context_hash" VARCHAR(128) NOT NULL,
    "context" JSONB NOT NULL DEFAULT '{}',
    "scheduled_time" TIMESTAMPTZ(6),
    "source" VARCHAR(16) NOT NULL,
    "status" VARCHAR(32) NOT NULL,
    "outcomes" JSONB NOT NULL DEFAULT '[]',
    "error_message" TEXT,
    "fired_by" VARCHAR(255),
    "inserted_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(6),
    CONSTRAINT "cyclium_trigger_firings_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "cyclium_trigger_firings_trigger_id_inserted_at_idx" ON "cyclium_trigger_firings"("trigger_id", "inserted_at" DESC);
-- SQL-only: one open firing per trigger and context, so the same fire never runs twice at once.
CREATE UNIQUE INDEX "cyclium_trigger_firings_open_context_key" ON "cyclium_trigger_firings"("trigger_id", "context_hash")
    WHERE "status" = 'running';
ALTER TABLE "cyclium_trigger_firings" ADD CONSTRAINT "cyclium_trigger_firings_trigger_id_fkey"
    FOREIGN KEY ("trigger_id") REFERENCES "cyclium_triggers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "cyclium_mode_overrides" (
    "id" BIGSERIAL NOT NULL,
    "target_node" VARCHAR(255) NOT NULL,
    "actor_id" VARCHAR(255),
    "mode" VARCHAR(32) NOT NULL,
    "set_by" VARCHAR(255),
    "inserted_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "cyclium_mode_overrides_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "cyclium_mode_overrides_mode_check" CHECK ("mode" IN ('full', 'trigger_only', 'disabled'))
);
-- SQL-only: one override per target node and actor; the node-wide one has a NULL actor.
CREATE UNIQUE INDEX "cyclium_mode_overrides_target_actor_key" ON "cyclium_mode_overrides"("target_node", "actor_id") NULLS NOT DISTINCT;

CREATE TABLE "cyclium_nodes" (
    "identity" VARCHAR(255) NOT NULL,
    "kind" VARCHAR(16) NOT NULL,
    "mode" VARCHAR(32) NOT NULL,
    "overrides" JSONB NOT NULL DEFAULT '{}',
    "stack" VARCHAR(255),
    "env" VARCHAR(255),
    "host" VARCHAR(255),
    "pid" INTEGER,
    "version" VARCHAR(64),
    "status" VARCHAR(16) NOT NULL DEFAULT 'running',
    "started_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "stopped_at" TIMESTAMPTZ(6),
    CONSTRAINT "cyclium_nodes_pkey" PRIMARY KEY ("identity")
);
CREATE INDEX "cyclium_nodes_last_seen_at_idx" ON "cyclium_nodes"("last_seen_at");

CREATE TABLE "cyclium_telemetry" (
    "id" BIGSERIAL NOT NULL,
    "bucket" TIMESTAMPTZ(6) NOT NULL,
    "event" VARCHAR(128) NOT NULL,
    "node" VARCHAR(255) NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,
    "sum_ms" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "max_ms" DOUBLE PRECISION NOT NULL DEFAULT 0,
    CONSTRAINT "cyclium_telemetry_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "cyclium_telemetry_bucket_event_node_key" ON "cyclium_telemetry"("bucket", "event", "node");
CREATE INDEX "cyclium_telemetry_event_bucket_idx" ON "cyclium_telemetry"("event", "bucket");

CREATE TABLE "cyclium_audit_log" (
    "id" BIGSERIAL NOT NULL,
    "user_id" UUID,
    "principal" VARCHAR(255) NOT NULL,
    "action" VARCHAR(128) NOT NULL,
    "target" VARCHAR(512),
    "outcome" VARCHAR(16) NOT NULL,
    "detail" JSONB NOT NULL DEFAULT '{}',
    "ip" VARCHAR(64),
    "inserted_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "cyclium_audit_log_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "cyclium_audit_log_inserted_at_id_idx" ON "cyclium_audit_log"("inserted_at" DESC, "id" DESC);

CREATE TABLE "cyclium_bus_events" (
    "id" BIGSERIAL NOT NULL,
    "topic" VARCHAR(255) NOT NULL,
    "payload" JSONB NOT NULL,
    "inserted_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "cyclium_bus_events_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "cyclium_bus_events_inserted_at_idx" ON "cyclium_bus_events"("inserted_at");

CREATE TABLE "cyclium_users" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "email" VARCHAR(255) NOT NULL,
    "name" VARCHAR(255) NOT NULL,
    "password_hash" VARCHAR(255) NOT NULL,
    "role" VARCHAR(16) NOT NULL,
    "disabled_at" TIMESTAMPTZ(6),
    "inserted_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "cyclium_users_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "cyclium_users_role_check" CHECK ("role" IN ('viewer', 'operator', 'admin'))
);
CREATE UNIQUE INDEX "cyclium_users_email_key" ON "cyclium_users"("email");

CREATE TABLE "cyclium_sessions" (
    "id" VARCHAR(128) NOT NULL,
    "user_id" UUID NOT NULL,
    "ip" VARCHAR(64),
    "user_agent" VARCHAR(512),
    "inserted_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,
    CONSTRAINT "cyclium_sessions_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "cyclium_sessions_user_id_idx" ON "cyclium_sessions"("user_id");
ALTER TABLE "cyclium_sessions" ADD CONSTRAINT "cyclium_sessions_user_id_fkey"
    FOREIGN KEY ("user_id") REFERENCES "cyclium_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "cyclium_api_tokens" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" VARCHAR(255) NOT NULL,
    "token_hash" VARCHAR(128) NOT NULL,
    "role" VARCHAR(16) NOT NULL,
    "created_by" UUID,
    "last_used_at" TIMESTAMPTZ(6),
    "revoked_at" TIMESTAMPTZ(6),
    "inserted_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "cyclium_api_tokens_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "cyclium_api_tokens_role_check" CHECK ("role" IN ('viewer', 'operator', 'admin'))
);
CREATE UNIQUE INDEX "cyclium_api_tokens_token_hash_key" ON "cyclium_api_tokens"("token_hash");
ALTER TABLE "cyclium_api_tokens" ADD CONSTRAINT "cyclium_api_tokens_created_by_fkey"
    FOREIGN KEY ("created_by") REFERENCES "cyclium_users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "resources" (
    "id" VARCHAR(255) NOT NULL,
    "name" VARCHAR(255) NOT NULL,
    "kind" VARCHAR(64) NOT NULL,
    "usage" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "limit" DOUBLE PRECISION NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "resources_pkey" PRIMARY KEY ("id")
);
