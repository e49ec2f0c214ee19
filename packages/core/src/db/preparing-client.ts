import { createHash } from "node:crypto";
import pg from "pg";

/** Uses of the same text on one connection before it is prepared (as pgjdbc's prepareThreshold). */
export const PREPARE_AFTER_USES = 3;
/** Named statements one connection keeps at most; later texts run unnamed, as before. */
export const MAX_PREPARED_PER_CONNECTION = 100;
/** Texts one connection counts at most: a text built per call is never counted for ever. */
const MAX_COUNTED_PER_CONNECTION = 1_000;

/**
 * A `pg.Client` that sends a statement it has run PREPARE_AFTER_USES times as a named prepared
 * statement: PostgreSQL then parses and analyses it once per connection instead of on every call,
 * and may keep its plan. The node's start and end statements are long CTEs sent thousands of
 * times a second while draining; parsing and planning them was about a fifth of PostgreSQL's CPU
 * per item (docs/benchmarks.md).
 *
 * Only plain `(text, values)` calls are prepared; a query config, a stream or a statement seen
 * rarely runs as pg runs it. A prepared statement whose result columns a migration changed (a
 * `RETURNING *` after ADD COLUMN during a rolling upgrade) fails once with PostgreSQL's "cached
 * plan must not change result type"; its text then runs unnamed on this connection.
 *
 * Never behind a transaction-mode pooler that does not track named statements (PgBouncer before
 * 1.21): a statement prepared on one server connection is not there on the next.
 * `preparedStatementsOn` (worker/prepared-statements.ts) decides that for a worker.
 */
class Preparing extends pg.Client {
  readonly #uses = new Map<string, number>();
  readonly #names = new Map<string, string>();
  readonly #unnamed = new Set<string>();

  // pg's query() is overloaded many ways; every form but (text, values[, callback]) passes through.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const [config, values, callback] = args as [unknown, unknown, unknown];
    const run = (all: unknown[]): unknown =>
      (super.query as (...a: unknown[]) => unknown).apply(this, all);
    if (typeof config !== "string" || !(values === undefined || Array.isArray(values))) {
      return run(args);
    }
    const name = this.#nameFor(config);
    if (name === undefined) return run(args);
    const forget = (error: unknown) => {
      if (isChangedResultType(error)) {
        this.#names.delete(config);
        this.#unnamed.add(config);
      }
    };
    const named = { name, text: config };
    if (typeof callback === "function") {
      return run([
        named,
        values,
        (error: unknown, result: unknown) => {
          forget(error);
          (callback as (e: unknown, r: unknown) => void)(error, result);
        },
      ]);
    }
    return (run([named, values]) as Promise<unknown>).catch((error: unknown) => {
      forget(error);
      throw error;
    });
  }

  #nameFor(text: string): string | undefined {
    if (this.#unnamed.has(text)) return undefined;
    const known = this.#names.get(text);
    if (known !== undefined) return known;
    const uses = (this.#uses.get(text) ?? 0) + 1;
    if (uses < PREPARE_AFTER_USES) {
      if (this.#uses.has(text) || this.#uses.size < MAX_COUNTED_PER_CONNECTION) {
        this.#uses.set(text, uses);
      }
      return undefined;
    }
    if (this.#names.size >= MAX_PREPARED_PER_CONNECTION) return undefined;
    this.#uses.delete(text);
    const name = `cyclium_${createHash("sha1").update(text).digest("hex").slice(0, 24)}`;
    this.#names.set(text, name);
    return name;
  }
}

/** Typed as pg's own client: every query overload, as a pool and its callers expect. */
export const PreparingClient = Preparing as unknown as typeof pg.Client;

/** PostgreSQL's 0A000 for a prepared statement replanned with other result columns. */
function isChangedResultType(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { code?: unknown }).code === "0A000" &&
    /cached plan must not change result type/.test(String((error as Error).message))
  );
}
