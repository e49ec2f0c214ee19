import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Queryable } from "../db/index";
import { CycliumError } from "../errors/index";
import { silentLogger, type Logger, type Telemetry } from "../telemetry/index";
import { createWorkClaims, isWorkClaimsMode } from "./create-work-claims";
import { WORK_CLAIMS_BATCH_METHODS, WORK_CLAIMS_METHODS, type WorkClaims } from "./work-claims";

/** What a claim adapter module's factory is given. */
export interface WorkClaimsFactoryDeps {
  /** The node's pool (the adapter may keep its claims there, or ignore it). */
  db: Queryable;
  telemetry: Telemetry;
  logger: Logger;
}

/** The default export (or `createWorkClaims` export) of a claim adapter module. */
export type WorkClaimsFactory = (deps: WorkClaimsFactoryDeps) => WorkClaims | Promise<WorkClaims>;

export interface LoadWorkClaimsOptions extends WorkClaimsFactoryDeps {
  /**
   * `CYCLIUM_WORK_CLAIMS`: `postgres` (default), `memory` (one process only), `off` (or `none`),
   * or a module: a path (`./claims/redis.js`, `/opt/x.mjs`, `file:` URL) or a package name.
   */
  setting: string;
  /** Relative paths and package names are resolved from here (default: the working directory). */
  baseDir?: string;
}

const SETTING = "CYCLIUM_WORK_CLAIMS";

/**
 * The node's WorkClaims from configuration: a built-in adapter, or a module's factory whose
 * result is checked against the contract here, at start-up, so a wrong adapter fails with a
 * message naming what it lacks instead of at the first episode.
 */
export async function loadWorkClaims(options: LoadWorkClaimsOptions): Promise<WorkClaims> {
  const setting = options.setting.trim();
  const { db, telemetry } = options;
  const logger = options.logger ?? silentLogger;
  if (setting === "") return createWorkClaims({ mode: "postgres", db, telemetry, logger });
  if (isWorkClaimsMode(setting)) return createWorkClaims({ mode: setting, db, telemetry, logger });

  const loaded = await importAdapterModule(setting, options.baseDir ?? process.cwd());
  const factory = factoryOf(loaded);
  if (factory === undefined) {
    throw invalid(setting, "the module exports neither a default factory nor createWorkClaims");
  }
  let claims: unknown;
  try {
    claims = await factory({ db, telemetry, logger });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CycliumError(
      "invalid_config",
      `${SETTING}=${setting}: the factory failed (${reason})`,
      {
        cause: error,
      },
    );
  }
  assertWorkClaims(claims, setting);
  logger.info(
    { module: setting, uses_sql_fence: claims.usesSqlFence === true, off: claims.off === true },
    "work claims adapter loaded",
  );
  return claims;
}

/**
 * Throws an `invalid_config` CycliumError unless `value` has every callback of the contract and
 * well-typed capabilities; `source` names where it came from in the message.
 */
export function assertWorkClaims(value: unknown, source: string): asserts value is WorkClaims {
  if (typeof value !== "object" || value === null) {
    throw invalid(
      source,
      `the factory returned ${value === null ? "null" : typeof value}, not an adapter`,
    );
  }
  const record = value as Record<string, unknown>;
  const missing = WORK_CLAIMS_METHODS.filter((name) => typeof record[name] !== "function");
  if (missing.length > 0) {
    const list = missing.map((name) => `${name}()`).join(", ");
    throw invalid(source, `the adapter is missing ${list} (see docs/work-claims.md)`);
  }
  for (const name of WORK_CLAIMS_BATCH_METHODS) {
    if (record[name] !== undefined && typeof record[name] !== "function") {
      throw invalid(source, `the adapter's ${name} must be a function when present`);
    }
  }
  for (const capability of ["usesSqlFence", "off"] as const) {
    const flag = record[capability];
    if (flag !== undefined && typeof flag !== "boolean") {
      throw invalid(source, `the adapter's ${capability} must be a boolean (got ${typeof flag})`);
    }
  }
}

async function importAdapterModule(setting: string, baseDir: string): Promise<unknown> {
  const specifier = resolveSpecifier(setting, baseDir);
  try {
    // A specifier only known at run time: bundlers (the console's Next.js build) must leave it.
    return (await import(
      /* webpackIgnore: true */ /* turbopackIgnore: true */ specifier
    )) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CycliumError(
      "invalid_config",
      `${SETTING}=${setting}: the module could not be loaded (${reason})`,
      {
        cause: error,
      },
    );
  }
}

/** Paths become file URLs; a package name is resolved from `baseDir`, else as core sees it. */
function resolveSpecifier(setting: string, baseDir: string): string {
  if (setting.startsWith("file:")) return setting;
  if (setting.startsWith(".") || path.isAbsolute(setting)) {
    return pathToFileURL(path.resolve(baseDir, setting)).href;
  }
  try {
    return pathToFileURL(createRequire(path.join(baseDir, "package.json")).resolve(setting)).href;
  } catch {
    // ESM-only packages have no `require` entry; let import() resolve the name itself.
    return setting;
  }
}

function factoryOf(loaded: unknown): WorkClaimsFactory | undefined {
  if (typeof loaded !== "object" || loaded === null) return undefined;
  const module = loaded as { default?: unknown; createWorkClaims?: unknown };
  if (typeof module.default === "function") return module.default as WorkClaimsFactory;
  if (typeof module.createWorkClaims === "function") {
    return module.createWorkClaims as WorkClaimsFactory;
  }
  // A CommonJS module's exports arrive as `default`.
  const inner = module.default as { createWorkClaims?: unknown } | undefined;
  if (typeof inner?.createWorkClaims === "function") {
    return inner.createWorkClaims as WorkClaimsFactory;
  }
  return undefined;
}

function invalid(setting: string, problem: string): CycliumError {
  return new CycliumError("invalid_config", `${SETTING}=${setting}: ${problem}`);
}
