import type { Queryable } from "../db/index";
import { clearExpiredFindings } from "./clear-expired-findings";
import { clearFinding, type ClearFindingResult } from "./clear-finding";
import type { Finding } from "./finding-row";
import { listActiveFindings, type FindingFilters } from "./list-active-findings";
import { raiseFinding, type RaiseFindingOptions, type RaiseFindingResult } from "./raise-finding";

export interface FindingsOptions {
  db: Queryable;
  /** The node's env (`CYCLIUM_ENV`); null when unset. Reads and episode-less writes default to it. */
  env: string | null;
}

/** Per-call env: absent keeps the node's env, null targets the unset env. */
export interface EnvOption {
  env?: string | null;
}

/**
 * Findings cordoned to the node's env (SPEC section 8): every read and write defaults to it and
 * takes an `env` to work on another one. A finding raised from an episode lands in the episode's
 * env instead.
 */
export interface Findings {
  raise(options: RaiseFindingOptions, tx?: Queryable): Promise<RaiseFindingResult>;
  clear(options: { findingKey: string } & EnvOption, tx?: Queryable): Promise<ClearFindingResult>;
  activeFor(filters?: FindingFilters, options?: EnvOption, tx?: Queryable): Promise<Finding[]>;
  clearExpired(options: { limit: number }, tx?: Queryable): Promise<Finding[]>;
}

export function createFindings(config: FindingsOptions): Findings {
  const envOf = (options: EnvOption): string | null =>
    options.env === undefined ? config.env : options.env;
  return {
    raise: (options, tx) => raiseFinding({ ...options, env: envOf(options) }, tx ?? config.db),
    clear: (options, tx) =>
      clearFinding({ findingKey: options.findingKey, env: envOf(options) }, tx ?? config.db),
    activeFor: (filters = {}, options = {}, tx) =>
      listActiveFindings({ filters, env: envOf(options) }, tx ?? config.db),
    clearExpired: (options, tx) => clearExpiredFindings(options, tx ?? config.db),
  };
}
