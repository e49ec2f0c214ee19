import { z } from "zod";
import type { LimitRule } from "./limit-rules";

/**
 * Why a start was refused: the rule that was full (`k`, `c`, `l`, `p` as in LimitRule), how
 * many ran or had started in the period (`n`), when it was judged (`at`, database clock) and,
 * for a rate limit, the instant a start frees up (`until`).
 */
export const ZLimitWait = z.object({
  k: z.string(),
  c: z.enum(["concurrency", "rate"]),
  l: z.number(),
  p: z.number().optional(),
  n: z.number(),
  at: z.coerce.date(),
  until: z.coerce.date().optional(),
});
export type LimitWait = z.infer<typeof ZLimitWait>;

/**
 * The cluster-wide limits of SPEC section 16, as the pieces every statement that moves an
 * episode to `running` includes (startEpisodes, startEpisode, startLeasedEpisodes,
 * startRequestedEpisodes). One gate, so no path can start around it.
 *
 * - `cte`: `limit_gate`, the function cyclium_admit_limited (migration 20261213100000) run once
 *   over the batch: per episode with rules, `admitted_at` when it may start, else `wait`. The
 *   function takes a transaction-level lock per key, then counts with a fresh snapshot the
 *   running episodes holding the key (a partial GIN index) and a rate key's starts within its
 *   period; the locks are held until the start statement commits. An episode without rules
 *   has no row and is not held back (`refused` is false).
 * - `refused(id)`: a predicate, true when the gate refused that episode.
 * - `set(id)`: the columns a start sets: the concurrency keys it now holds, its wait cleared
 *   and, for a limited episode, `started_at` the gate's clock (so a sliding window read from
 *   the episodes agrees with the gate's).
 * - `writes(started)`: CTEs recording each rate-limited start (its window row) and each refused
 *   episode's reason (`limit_wait`, for the "why it waits" explanation).
 *
 * `ids` is a uuid[] expression in the batch's order (its order is the admission order);
 * `rules` a jsonb parameter aligned with it, NULL when no episode of the batch has a rule.
 */
export function limitGateSql(ids: string, rules: string) {
  return {
    cte: `limit_gate AS MATERIALIZED (
  SELECT * FROM cyclium_admit_limited(${ids}, ${rules}) WHERE ${rules} IS NOT NULL
)`,
    refused: (id: string) =>
      `EXISTS (SELECT 1 FROM limit_gate lg WHERE lg.episode_id = ${id} AND lg.admitted_at IS NULL)`,
    set: (id: string) => `limit_keys = (SELECT NULLIF(lg.conc_keys, '{}') FROM limit_gate lg
                       WHERE lg.episode_id = ${id}),
         limit_wait = NULL,
         started_at = COALESCE((SELECT lg.admitted_at FROM limit_gate lg
                                WHERE lg.episode_id = ${id}), now())`,
    writes: (started: string) => `limit_window AS (
  INSERT INTO cyclium_limit_starts (limit_key, started_at, episode_id)
  SELECT k, lg.admitted_at, lg.episode_id
    FROM limit_gate lg JOIN ${started} st ON st.id = lg.episode_id
    CROSS JOIN LATERAL unnest(lg.rate_keys) AS k
),
limit_refused AS (
  UPDATE cyclium_episodes le SET limit_wait = lg.wait
    FROM limit_gate lg
   WHERE le.id = ANY(ARRAY(SELECT episode_id FROM limit_gate WHERE admitted_at IS NULL))
     AND le.id = lg.episode_id AND lg.admitted_at IS NULL AND le.status = 'pending'
)`,
  };
}

/** The gate's parameter: per episode its rules, or null when none of the batch has one. */
export function limitRulesParam(
  rules: readonly (readonly LimitRule[] | undefined)[],
): string | null {
  if (!rules.some((entry) => entry !== undefined && entry.length > 0)) return null;
  return JSON.stringify(rules.map((entry) => entry ?? []));
}

/** A refused episode's wait as the gate returned it (jsonb, parsed by pg). */
export function toLimitWait(value: unknown): LimitWait {
  return ZLimitWait.parse(value);
}
