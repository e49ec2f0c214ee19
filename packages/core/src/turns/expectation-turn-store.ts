import type { Queryable } from "../db/index";

/** The expectation whose turns a row holds, in one env (null: the unset env). */
export interface ExpectationTurnKey {
  actorId: string;
  expectationId: string;
  env: string | null;
}

/** A due turn to claim: `next_fire_at` moves from `due` to `next`; `fired` is the window run. */
export interface ExpectationTurnClaim {
  due: Date | null;
  next: Date | null;
  fired: Date | null;
}

/**
 * Where the turns of schedule and poll expectations are claimed (`cyclium_expectation_turns`),
 * the way a deployment trigger's are (`claimTriggerTurn`): every node reads the same stored
 * `next_fire_at`, and the one whose conditional update still finds it runs the turn.
 */
export interface ExpectationTurnStore {
  /**
   * Stores the row with `next` as its first due turn, unless it exists with the same `rule` (a
   * changed cron expression or interval starts afresh instead of firing an old rule's window).
   */
  ensure(key: ExpectationTurnKey, rule: string, next: Date | null): Promise<void>;
  /** The stored `next_fire_at`; undefined when there is no row (yet, or any more). */
  read(key: ExpectationTurnKey): Promise<Date | null | undefined>;
  /** True for the one node whose update found `due` still stored. */
  claim(key: ExpectationTurnKey, turn: ExpectationTurnClaim): Promise<boolean>;
}

const ENSURE_SQL = `
INSERT INTO cyclium_expectation_turns (actor_id, expectation_id, env, rule, next_fire_at)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (actor_id, expectation_id, env) DO UPDATE
   SET rule = EXCLUDED.rule, next_fire_at = EXCLUDED.next_fire_at, updated_at = now()
 WHERE cyclium_expectation_turns.rule IS DISTINCT FROM EXCLUDED.rule`;

const READ_SQL = `
SELECT next_fire_at FROM cyclium_expectation_turns
 WHERE actor_id = $1 AND expectation_id = $2 AND env IS NOT DISTINCT FROM $3`;

// Every stored time went through a JavaScript Date (milliseconds), so the comparison holds; see
// triggers/claim-trigger-turn.ts for why a bare now() would never compare equal again.
const CLAIM_SQL = `
UPDATE cyclium_expectation_turns
   SET next_fire_at = $5, last_fire_at = COALESCE($6, last_fire_at), updated_at = now()
 WHERE actor_id = $1 AND expectation_id = $2 AND env IS NOT DISTINCT FROM $3
   AND next_fire_at IS NOT DISTINCT FROM $4
RETURNING id`;

export class PostgresExpectationTurns implements ExpectationTurnStore {
  readonly #db: Queryable;

  constructor(db: Queryable) {
    this.#db = db;
  }

  async ensure(key: ExpectationTurnKey, rule: string, next: Date | null): Promise<void> {
    await this.#db.query(ENSURE_SQL, [key.actorId, key.expectationId, key.env, rule, next]);
  }

  async read(key: ExpectationTurnKey): Promise<Date | null | undefined> {
    const { rows } = await this.#db.query<{ next_fire_at: Date | null }>(READ_SQL, [
      key.actorId,
      key.expectationId,
      key.env,
    ]);
    return rows[0]?.next_fire_at;
  }

  async claim(key: ExpectationTurnKey, turn: ExpectationTurnClaim): Promise<boolean> {
    const result = await this.#db.query(CLAIM_SQL, [
      key.actorId,
      key.expectationId,
      key.env,
      turn.due,
      turn.next,
      turn.fired,
    ]);
    return (result.rowCount ?? 0) > 0;
  }
}

/** The same rules in memory: unit tests, and nodes that share one process. */
export class MemoryExpectationTurns implements ExpectationTurnStore {
  readonly #rows = new Map<string, { rule: string; next: Date | null }>();

  ensure(key: ExpectationTurnKey, rule: string, next: Date | null): Promise<void> {
    const row = this.#rows.get(keyOf(key));
    if (row?.rule !== rule) this.#rows.set(keyOf(key), { rule, next });
    return Promise.resolve();
  }

  read(key: ExpectationTurnKey): Promise<Date | null | undefined> {
    return Promise.resolve(this.#rows.get(keyOf(key))?.next);
  }

  claim(key: ExpectationTurnKey, turn: ExpectationTurnClaim): Promise<boolean> {
    const row = this.#rows.get(keyOf(key));
    if (row === undefined || row.next?.getTime() !== turn.due?.getTime()) {
      return Promise.resolve(false);
    }
    row.next = turn.next;
    return Promise.resolve(true);
  }
}

function keyOf(key: ExpectationTurnKey): string {
  return JSON.stringify([key.actorId, key.expectationId, key.env]);
}
