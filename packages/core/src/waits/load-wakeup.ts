import type { Wakeup } from "../actors/index";
import type { Queryable } from "../db/index";

export interface LoadWakeupOptions {
  episodeId: string;
  /** The checkpoint the run resumes from: a wake-up only when it is the wait's own. */
  checkpointNumber: number;
}

// The wait taken at that step and, for a signal wait, the signal it consumes: the one it already
// consumed (a run restarted before its next checkpoint repeats the wake-up, not the consumption),
// else the oldest one of that name not consumed yet, marked consumed by this step. Row-locked with
// SKIP LOCKED: two runs racing (a zombie and its successor) never consume two signals.
const SQL = `
WITH w AS (
  SELECT kind, signal, since, wall_used_ms FROM cyclium_episode_waits
   WHERE episode_id = $1 AND step_no = $2
),
already AS (
  SELECT s.id, s.name, s.payload, s.sent_by FROM cyclium_signals s
   WHERE s.episode_id = $1 AND s.consumed_step = $2 AND s.name = (SELECT signal FROM w)
   ORDER BY s.id LIMIT 1
),
pick AS (
  SELECT s.id FROM cyclium_signals s
   WHERE s.episode_id = $1 AND s.name = (SELECT signal FROM w) AND s.consumed_at IS NULL
     AND NOT EXISTS (SELECT 1 FROM already)
   ORDER BY s.id LIMIT 1
   FOR UPDATE SKIP LOCKED
),
consumed AS (
  UPDATE cyclium_signals s
     SET consumed_at = now(), consumed_step = $2
    FROM pick p WHERE s.id = p.id
  RETURNING s.id, s.name, s.payload, s.sent_by
),
woken AS (
  UPDATE cyclium_episode_waits SET woken_at = COALESCE(woken_at, now())
   WHERE episode_id = $1 AND step_no = $2
)
SELECT w.kind, w.signal, w.since, w.wall_used_ms, sig.name AS signal_name,
       sig.payload AS signal_payload, sig.sent_by AS signal_sent_by
  FROM w LEFT JOIN (SELECT * FROM already UNION ALL SELECT * FROM consumed) sig ON true`;

interface Row {
  kind: "sleep" | "signal";
  signal: string | null;
  since: Date;
  wall_used_ms: number;
  signal_name: string | null;
  signal_payload: unknown;
  signal_sent_by: string | null;
}

/**
 * What woke an episode resumed from checkpoint `checkpointNumber`, when that checkpoint is the
 * one its wait saved (SPEC section 17): `slept`, a `signal` with its payload (consumed here,
 * exactly once), or a `timeout`. Undefined when the checkpoint is not a wait's.
 */
export async function loadWakeup(
  options: LoadWakeupOptions,
  db: Queryable,
): Promise<{ wakeup: Wakeup; wallUsedMs: number } | undefined> {
  const { rows } = await db.query<Row>(SQL, [options.episodeId, options.checkpointNumber]);
  const row = rows[0];
  if (row === undefined) return undefined;
  const since = row.since;
  const wallUsedMs = row.wall_used_ms;
  if (row.kind === "sleep") return { wakeup: { kind: "slept", since }, wallUsedMs };
  const signal = row.signal ?? "";
  if (row.signal_name === null) return { wakeup: { kind: "timeout", signal, since }, wallUsedMs };
  return {
    wakeup: {
      kind: "signal",
      signal,
      payload: row.signal_payload,
      sentBy: row.signal_sent_by ?? "",
      since,
    },
    wallUsedMs,
  };
}
