import type { Queryable } from "../db/index";
import { injectTraceContext, type TraceCarrier } from "../tracing/index";
import type { TTriggerRequestOpts } from "./trigger-request";

export interface NewTriggerRequest {
  episodeId: string;
  actorId: string;
  expectationId: string;
  /** The episode's scope: a request is polled by the nodes of the env it was created in. */
  sourceStack: string | null;
  sourceEnv: string | null;
  opts?: TTriggerRequestOpts;
  /** The span that writes it (the fire's trace), continued by the worker; default: the active one. */
  traceContext?: TraceCarrier | null;
  /** Not claimed before this time; default: at once. */
  runAt?: Date | undefined;
  /** Not claimed before this many ms from now (database clock); added to runAt when both. */
  delayMs?: number | undefined;
  /** Higher is claimed first (SPEC section 16); default 0. */
  priority?: number | undefined;
}

export interface InsertTriggerRequestsOptions {
  requests: readonly NewTriggerRequest[];
  /** The writing node (`source_node`). */
  sourceNode: string;
}

/**
 * Inserts `pending` requests, one statement for any number (unnest of parallel arrays), so a
 * draining node can hand its whole queue over in one round trip. Returns the new ids in order.
 */
export async function insertTriggerRequests(
  options: InsertTriggerRequestsOptions,
  db: Queryable,
): Promise<string[]> {
  const { requests } = options;
  if (requests.length === 0) return [];
  const active = injectTraceContext();
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO cyclium_trigger_requests
       (episode_id, actor_id, expectation_id, source_node, source_stack, source_env, status, opts,
        trace_context, run_at, priority, claim_priority)
     SELECT r.episode_id, r.actor_id, r.expectation_id, $1, r.source_stack, r.source_env,
            'pending', r.opts, r.trace_context,
            coalesce(r.run_at, now()) + make_interval(secs => coalesce(r.delay_ms, 0) / 1000.0),
            r.priority, r.priority
       FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::jsonb[],
                   $8::jsonb[], $9::timestamptz[], $10::float8[], $11::int[])
            WITH ORDINALITY AS r(episode_id, actor_id, expectation_id, source_stack, source_env, opts,
                                 trace_context, run_at, delay_ms, priority, n)
      ORDER BY r.n
     RETURNING id::text`,
    [
      options.sourceNode,
      requests.map((r) => r.episodeId),
      requests.map((r) => r.actorId),
      requests.map((r) => r.expectationId),
      requests.map((r) => r.sourceStack),
      requests.map((r) => r.sourceEnv),
      requests.map((r) => JSON.stringify(r.opts ?? {})),
      requests.map((r) => {
        const carrier = r.traceContext === undefined ? active : r.traceContext;
        return carrier === null ? null : JSON.stringify(carrier);
      }),
      requests.map((r) => r.runAt ?? null),
      requests.map((r) => r.delayMs ?? null),
      requests.map((r) => r.priority ?? 0),
    ],
  );
  return rows.map((row) => row.id);
}
