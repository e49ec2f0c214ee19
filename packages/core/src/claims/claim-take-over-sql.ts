import type { ClaimState } from "./work-claims";

/**
 * The claim take-over rules (SPEC section 4) as SQL fragments, for the three statements that
 * take claims: acquire-claim.ts (one key), acquire-claims.ts (many keys) and
 * episodes/start-episodes.ts (many keys, and their episodes started in the same statement).
 * A change of the rules is an edit here; the statements around the fragments differ on purpose:
 *
 * - acquire-claim.ts and acquire-claims.ts steal a lapsed `claimed` claim in an arm of their own
 *   (`stealClaimSetSql`), so that a steal can be told from a fresh take-over, and answer busy
 *   for a live one (`liveClaimSql`) from the snapshot without locking it.
 * - start-episodes.ts steals nothing: it leaves every `claimed` claim alone, lapsed or not, and
 *   its caller takes the one-key acquire for those (`contended`).
 *
 * Each fragment is spliced into the statement's text as it was written before it moved here, so
 * the statements and their plans are unchanged. Parameters are passed in as SQL expressions
 * (`$2`); lease times use the database clock (`now()`) only.
 */

/** The states a claim is taken over from by the upsert, at attempt + 1. */
const TAKE_OVER_STATES = ["done", "failed", "expired"] as const satisfies readonly ClaimState[];

/** Columns qualified with `alias`, or unqualified when there is none. */
function qualify(alias: string | undefined, column: string): string {
  return alias === undefined ? column : `${alias}.${column}`;
}

/** The `lease_until` of a claim taken now for `leaseSeconds` (a SQL expression, e.g. `$3`). */
function leaseUntilSql(leaseSeconds: string): string {
  return `now() + make_interval(secs => ${leaseSeconds})`;
}

/** A claim still `claimed` whose lease ran out: the one a steal takes. */
export function lapsedClaimSql(alias?: string): string {
  return `${qualify(alias, "state")} = 'claimed'
     AND ${qualify(alias, "lease_until")} < now()`;
}

/** A claim `claimed` under a live lease: busy, never taken. */
export function liveClaimSql(alias?: string): string {
  return `${qualify(alias, "state")} = 'claimed'
     AND ${qualify(alias, "lease_until")} >= now()`;
}

/**
 * The SET list of a steal (an UPDATE of a lapsed claim, the row qualified with `alias` if the
 * statement names it): the new owner and lease, attempt + 1, steals + 1, the old error cleared.
 */
export function stealClaimSetSql(options: {
  alias?: string;
  owner: string;
  leaseSeconds: string;
}): string {
  const { alias } = options;
  return `owner_node = ${options.owner},
         lease_until = ${leaseUntilSql(options.leaseSeconds)},
         attempt = ${qualify(alias, "attempt")} + 1,
         steals = ${qualify(alias, "steals")} + 1,
         error_detail = NULL,
         updated_at = now()`;
}

/**
 * The upsert that takes the claims of the keys `source` selects: a key without a row gets a new
 * `claimed` claim (attempt 1); a key whose claim is `done`/`failed`/`expired` takes it over at
 * attempt + 1, its old error cleared; a key whose claim is `claimed` gets no row (ON CONFLICT's
 * WHERE is re-checked under the row lock on the newest committed version). The table is aliased
 * `c`; the caller appends its RETURNING.
 *
 * `source` is the rest of the INSERT's SELECT after its column list (FROM, WHERE, ORDER BY), with
 * `key` the dedupe key it selects; `owner` and `leaseSeconds` are SQL expressions.
 */
export function takeClaimsSql(options: {
  key: string;
  owner: string;
  leaseSeconds: string;
  source: string;
}): string {
  const states = TAKE_OVER_STATES.map((state) => `'${state}'`).join(", ");
  return `INSERT INTO cyclium_work_claims AS c (dedupe_key, state, owner_node, lease_until)
  SELECT ${options.key}, 'claimed', ${options.owner}, ${leaseUntilSql(options.leaseSeconds)}
  ${options.source}
  ON CONFLICT (dedupe_key) DO UPDATE
     SET state = 'claimed',
         owner_node = EXCLUDED.owner_node,
         lease_until = EXCLUDED.lease_until,
         attempt = c.attempt + 1,
         error_detail = NULL,
         updated_at = now()
   WHERE c.state IN (${states})`;
}
