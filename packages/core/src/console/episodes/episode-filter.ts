import { envScopeSql, type SqlParams } from "../../scope/index";
import type { EpisodeStatus, TriggerType } from "../../episodes/episode-row";

/** `input.<path>:<value>`: the scalar at `path` (object keys from the top) equals `value`. */
export interface EpisodeInputMatch {
  path: readonly string[];
  /** As typed: matches the JSON string, and the JSON number/boolean/null it spells, if any. */
  value: string;
}

export interface EpisodeListFilters {
  /** Strict (SPEC section 8): `null` is the unset env and matches NULL rows only. */
  env: string | null;
  actorId?: string | undefined;
  expectationId?: string | undefined;
  status?: EpisodeStatus | undefined;
  triggerType?: TriggerType | undefined;
  stack?: string | undefined;
  /** Inclusive lower and exclusive upper bound on inserted_at. */
  from?: Date | undefined;
  to?: Date | undefined;
  /** Archived episodes are hidden unless asked for; then only they are listed. */
  archived?: boolean | undefined;
  /**
   * Exhausted only (SPEC section 16): failed after more than one attempt, so its automatic retries
   * (or recovery restarts) are used up and only an operator's retry runs it again.
   */
  exhausted?: boolean | undefined;
  /** The dedupe key, exactly. */
  dedupeKey?: string | undefined;
  /** The start of the id in hex (dashes left out, 1-32 digits); 32 digits is one episode. */
  idPrefix?: string | undefined;
  /** Every match must hold. */
  input?: readonly EpisodeInputMatch[] | undefined;
}

const HEX_PREFIX = /^[0-9a-f]{1,32}$/;

/** `0f3` -> the smallest and largest uuid that start with it, for an index range on the id. */
function uuidRange(prefix: string): [string, string] {
  if (!HEX_PREFIX.test(prefix)) throw new Error(`idPrefix must be 1-32 hex digits: ${prefix}`);
  const asUuid = (hex: string) =>
    `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return [asUuid(prefix.padEnd(32, "0")), asUuid(prefix.padEnd(32, "f"))];
}

const JSON_LITERAL = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)$/;

/** The documents `input @> doc` tests for one match: the value as a string, and as a literal. */
export function inputContainments(match: EpisodeInputMatch): string[] {
  const values: unknown[] = [match.value];
  if (JSON_LITERAL.test(match.value)) values.push(JSON.parse(match.value));
  return values.map((value) =>
    JSON.stringify(match.path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value)),
  );
}

/** Builds the WHERE clause of the episode list, count and bulk commands (and the bench's EXPLAIN). */
export function episodeFilterSql(filters: EpisodeListFilters, params: SqlParams): string {
  const where = [envScopeSql("source_env", filters.env, params)];
  // Equality filters line up with the (source_env, <column>, inserted_at, id) indexes, so every
  // combination walks one index in order and stops after `limit` rows (see the migration and
  // apps/web/bench/episodes-list-bench.ts for the figures).
  if (filters.status !== undefined) where.push(`status = ${params.add(filters.status)}`);
  if (filters.actorId !== undefined) where.push(`actor_id = ${params.add(filters.actorId)}`);
  if (filters.expectationId !== undefined) {
    where.push(`expectation_id = ${params.add(filters.expectationId)}`);
  }
  if (filters.triggerType !== undefined) {
    where.push(`trigger_type = ${params.add(filters.triggerType)}`);
  }
  if (filters.stack !== undefined) where.push(`source_stack = ${params.add(filters.stack)}`);
  if (filters.from !== undefined) where.push(`inserted_at >= ${params.add(filters.from)}`);
  if (filters.to !== undefined) where.push(`inserted_at < ${params.add(filters.to)}`);
  // The live-key unique index (dedupe_key WHERE archived_at IS NULL) serves the default list.
  if (filters.dedupeKey !== undefined) where.push(`dedupe_key = ${params.add(filters.dedupeKey)}`);
  if (filters.idPrefix !== undefined) {
    // uuids sort by their bytes, which is the order of their hex text: a prefix is a range of
    // the primary key, not a LIKE over id::text (which reads every row).
    const [low, high] = uuidRange(filters.idPrefix);
    where.push(`id BETWEEN ${params.add(low)}::uuid AND ${params.add(high)}::uuid`);
  }
  for (const match of filters.input ?? []) {
    // Containment, so the GIN index on input (jsonb_path_ops) finds the rows: a search for one
    // order number reads the few episodes that have it, not the env's million (see the bench).
    const either = inputContainments(match).map((doc) => `input @> ${params.add(doc)}::jsonb`);
    where.push(either.length === 1 ? (either[0] ?? "FALSE") : `(${either.join(" OR ")})`);
  }
  // Rides the (source_env, status, inserted_at, id) index: failed rows, their attempt read per row.
  if (filters.exhausted === true) where.push("status = 'failed' AND attempt > 1");
  where.push(filters.archived === true ? "archived_at IS NOT NULL" : "archived_at IS NULL");
  return where.join(" AND ");
}
