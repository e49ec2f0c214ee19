// A lived-in cluster for the page screenshots: episodes in every state with step journals, a
// held and a stolen claim, a failed claim with long values, an active finding, a workflow
// instance, telemetry with a steal.
import { randomUUID } from "node:crypto";
import type pg from "pg";

export interface TSeededConsole {
  failedEpisodeId: string;
  runningEpisodeId: string;
  workflowInstanceId: string;
}

export async function seedLivedInConsole(db: pg.Pool): Promise<TSeededConsole> {
  const tag = randomUUID().slice(0, 8);
  const insert = async (status: string, extra: { error?: string; minutesAgo: number }) => {
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO cyclium_episodes
         (actor_id, expectation_id, status, trigger_type, dedupe_key, input, result, error_class,
          error_message, executed_by, source_node, inserted_at, started_at, finished_at,
          turns_used, tokens_used)
       VALUES ('resource_monitor', 'check_resource_limits', $1::text, 'event', $2,
               '{"resourceId":"api-cluster"}', $3, $4, $5, 'worker-e2e-1', 'web-e2e',
               now() - make_interval(mins => $6), now() - make_interval(mins => $6),
               CASE WHEN $1::text IN ('completed', 'failed') THEN now() - make_interval(mins => $6) + interval '3 seconds' END,
               2, 1200)
       RETURNING id`,
      [
        status,
        `event:resource_monitor:check_resource_limits:${tag}-${status}-${extra.minutesAgo}`,
        status === "completed" ? JSON.stringify({ breach: true, usage: 118, limit: 100 }) : null,
        extra.error ?? null,
        extra.error ? "Resource api-cluster could not be read: connection reset" : null,
        extra.minutesAgo,
      ],
    );
    const id = rows[0]?.id ?? "";
    await db.query(
      `INSERT INTO cyclium_episode_steps (episode_id, attempt, step_no, outcome, data, turns, tokens, duration_ms, node)
       VALUES ($1, 1, 1, 'next', '{"phase":"load"}', 1, 600, 41, 'worker-e2e-1'),
              ($1, 1, 2, $2, '{"phase":"compare"}', 1, 600, 12, 'worker-e2e-1')`,
      [id, status === "failed" ? "fail" : "done"],
    );
    return id;
  };
  for (let i = 0; i < 6; i += 1) await insert("completed", { minutesAgo: 30 + i });
  const failedEpisodeId = await insert("failed", { error: "step_error", minutesAgo: 12 });
  const runningEpisodeId = await insert("running", { minutesAgo: 1 });
  await db.query(
    `INSERT INTO cyclium_work_claims (dedupe_key, state, owner_node, lease_until, attempt, steals)
     SELECT dedupe_key, 'claimed', 'worker-e2e-1', now() + interval '95 seconds', 2, 1
       FROM cyclium_episodes WHERE id = $1
     ON CONFLICT (dedupe_key) DO NOTHING`,
    [runningEpisodeId],
  );
  // A failed claim as production writes them: a long dedupe key, a pod-named owner and a
  // sentence of detail, the values that pushed the claims table's last column out of view.
  await db.query(
    `INSERT INTO cyclium_work_claims (dedupe_key, state, owner_node, lease_until, attempt, steals, error_detail, inserted_at, updated_at)
     VALUES ($1, 'failed', 'cyclium-worker-7d9f8b6c5-x2k4q-1-3fa9c2d1', now() - interval '4 minutes', 3, 0,
             'Attempt 3 of 3 failed: the connection to PostgreSQL was terminated while renewing the lease (ECONNRESET); the claim was released as failed.',
             now() - interval '5 minutes', now() - interval '4 minutes')
     ON CONFLICT (dedupe_key) DO NOTHING`,
    [`trigger:capacity_review_schedule:2026-12-03T15:45:00.000Z:request-${tag}-0001`],
  );
  await db.query(
    `INSERT INTO cyclium_findings (finding_key, class, severity, subject, summary, status, episode_id, actor_id, raised_count)
     VALUES ($1, 'limit_breach', 'critical', 'api-cluster',
             'API cluster is at 118% of its limit (118 / 100).', 'active', $2, 'resource_monitor', 3)
     ON CONFLICT DO NOTHING`,
    [`limit_breach:api-cluster-${tag}`, failedEpisodeId],
  );
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO cyclium_workflow_instances (workflow_name, status, step_states, trigger_name)
     VALUES ('capacity_review', 'running', $1, 'capacity_review_schedule') RETURNING id`,
    [
      JSON.stringify({
        survey: { status: "done", attempt: 1, episodeId: failedEpisodeId },
        check_primary: { status: "running", attempt: 1, episodeId: runningEpisodeId },
      }),
    ],
  );
  await db.query(
    `INSERT INTO cyclium_telemetry (bucket, event, node, count)
     SELECT date_trunc('minute', now()) - make_interval(mins => m), e, 'worker-e2e-1',
            CASE WHEN e = 'cyclium.work_claims.steal' THEN (m = 7)::int ELSE 3 + m % 5 END
       FROM generate_series(0, 40) AS m,
            unnest(ARRAY['cyclium.work_claims.acquired', 'cyclium.work_claims.steal',
                         'cyclium.work_claims.renewed', 'cyclium.episode.completed']) AS e
     ON CONFLICT (bucket, event, node) DO NOTHING`,
  );
  await db.query(
    `INSERT INTO cyclium_recovery_sweeps (node, trigger, requested_by, found, claimed, restarted, failed, duration_ms)
     VALUES ('web-e2e', 'manual', 'operator@e2e.cyclium.local', 2, 2, 1, 1, 38.5)`,
  );
  // One episode in another env, so the env selector offers it and shows a world of its own.
  await db.query(
    `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type, source_env)
     VALUES ('resource_monitor', 'check_resource_limits', 'completed', 'event', 'staging-e2e')`,
  );
  return { failedEpisodeId, runningEpisodeId, workflowInstanceId: rows[0]?.id ?? "" };
}
