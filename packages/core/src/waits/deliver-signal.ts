import { z } from "zod";
import { withTransaction, type Connectable, type Queryable } from "../db/index";
import type { EpisodeStatus } from "../episodes/index";
import { TRIGGER_REQUESTS_CHANNEL } from "../deferred/trigger-request";
import { wakeOptsSql } from "./park-episode";

export const ZDeliverSignalInput = z.object({
  episodeId: z.uuid(),
  name: z.string().trim().min(1).max(255),
  payload: z.unknown(),
  /** A second delivery with the same key (per episode and signal) changes nothing. */
  idempotencyKey: z.string().trim().min(1).max(255).optional(),
  /** Who sent it: an operator's `user:{email}`, a token's name, a client's node identity. */
  sentBy: z.string().min(1).max(255),
});
export type TDeliverSignalInput = z.input<typeof ZDeliverSignalInput>;

export type DeliverSignalResult =
  /** Kept; `woke`: the episode was waiting for it and its resume is due now. */
  | { kind: "delivered"; signalId: string; woke: boolean }
  /** Already delivered with this idempotency key: nothing changed. */
  | { kind: "duplicate"; signalId: string }
  | { kind: "not_found" }
  /** Completed, failed or cancelled: no wait will ever consume it. */
  | { kind: "ended"; status: EpisodeStatus };

const ENDED: readonly EpisodeStatus[] = ["completed", "failed", "cancelled"];

// A waiting episode waiting for this signal: its pending request becomes due now, or, when it had
// none (a wait without a timeout), one is inserted; one NOTIFY wakes the pollers either way. A
// request already claimed (its timeout came first) is left alone: the signal stays for later.
const WAKE_SQL = `
WITH w AS (
  SELECT step_no FROM cyclium_episode_waits
   WHERE episode_id = $1 AND kind = 'signal' AND signal = $2 AND woken_at IS NULL
),
moved AS (
  UPDATE cyclium_trigger_requests
     SET run_at = LEAST(run_at, now()), updated_at = now()
   WHERE episode_id = $1 AND status = 'pending' AND EXISTS (SELECT 1 FROM w)
  RETURNING id
),
inserted AS (
  INSERT INTO cyclium_trigger_requests
    (episode_id, actor_id, expectation_id, source_node, source_stack, source_env, status, opts,
     run_at)
  SELECT e.id, e.actor_id, e.expectation_id, $3, e.source_stack, e.source_env, 'pending',
         ${wakeOptsSql("w.step_no")}, now()
    FROM cyclium_episodes e CROSS JOIN w
   WHERE e.id = $1
     AND NOT EXISTS (SELECT 1 FROM cyclium_trigger_requests r
                      WHERE r.episode_id = $1 AND r.status IN ('pending', 'claimed'))
  RETURNING id
),
woke AS (
  SELECT (SELECT count(*) FROM moved) + (SELECT count(*) FROM inserted) AS n
)
SELECT n::int AS woke,
       CASE WHEN n > 0 THEN pg_notify('${TRIGGER_REQUESTS_CHANNEL}', '{}') END AS notified
  FROM woke`;

/**
 * Delivers a signal to an episode (SPEC section 17), in one transaction that first locks the
 * episode row: a park running at the same time either committed before (the episode is seen
 * `waiting` and woken here) or waits for this commit (and its wake-up request, written after,
 * sees the signal). The payload must already be valid (validateSignal): this stores it as is.
 * A signal for a pending or running episode is kept for its next `waitFor` of that name.
 */
export async function deliverSignal(
  input: TDeliverSignalInput,
  db: Connectable,
  /** The caller's open transaction (e.g. its audit row's): the delivery joins it. */
  tx?: Queryable,
): Promise<DeliverSignalResult> {
  const parsed = ZDeliverSignalInput.parse(input);
  return tx === undefined
    ? withTransaction(db, (own) => deliverIn(parsed, own))
    : deliverIn(parsed, tx);
}

async function deliverIn(
  input: z.output<typeof ZDeliverSignalInput>,
  tx: Queryable,
): Promise<DeliverSignalResult> {
  const { episodeId, name, payload, idempotencyKey, sentBy } = input;
  const episode = await tx.query<{ status: EpisodeStatus }>(
    `SELECT status FROM cyclium_episodes WHERE id = $1 FOR UPDATE`,
    [episodeId],
  );
  const status = episode.rows[0]?.status;
  if (status === undefined) return { kind: "not_found" };
  if (ENDED.includes(status)) {
    // A retry of a delivery that went through gets the same answer, even if the episode consumed
    // the signal and ended in between.
    const sent = await deliveredBefore(tx, input);
    return sent === undefined ? { kind: "ended", status } : { kind: "duplicate", signalId: sent };
  }
  const inserted = await tx.query<{ id: string }>(
    `INSERT INTO cyclium_signals (episode_id, name, payload, idempotency_key, sent_by)
     VALUES ($1, $2, $3::jsonb, $4, $5)
     ON CONFLICT (episode_id, name, idempotency_key) DO NOTHING
     RETURNING id::text AS id`,
    [episodeId, name, JSON.stringify(payload ?? null), idempotencyKey ?? null, sentBy],
  );
  const signalId = inserted.rows[0]?.id;
  if (signalId === undefined) {
    return { kind: "duplicate", signalId: (await deliveredBefore(tx, input)) ?? "" };
  }
  if (status !== "waiting") return { kind: "delivered", signalId, woke: false };
  const woke = await tx.query<{ woke: number }>(WAKE_SQL, [episodeId, name, sentBy]);
  return { kind: "delivered", signalId, woke: (woke.rows[0]?.woke ?? 0) > 0 };
}

/** The id of the signal already delivered with this idempotency key; none without a key. */
async function deliveredBefore(
  tx: Queryable,
  input: z.output<typeof ZDeliverSignalInput>,
): Promise<string | undefined> {
  if (input.idempotencyKey === undefined) return undefined;
  const { rows } = await tx.query<{ id: string }>(
    `SELECT id::text AS id FROM cyclium_signals
      WHERE episode_id = $1 AND name = $2 AND idempotency_key = $3`,
    [input.episodeId, input.name, input.idempotencyKey],
  );
  return rows[0]?.id;
}
