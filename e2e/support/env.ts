// The only e2e module that reads or writes process.env (lint enforces it). The global setup
// publishes what it started through variables, which Playwright's worker processes inherit.
const BASE_URL = "CYCLIUM_E2E_BASE_URL";
const DATABASE_URL = "CYCLIUM_E2E_DATABASE_URL";
const WORKER_URL = "CYCLIUM_E2E_WORKER_URL";

/** A PostgreSQL server chosen by the developer or CI; unset means the embedded test server. */
export function configuredDatabaseUrl(): string | undefined {
  return process.env.DATABASE_URL || undefined;
}

export function publishE2eTargets(targets: {
  baseUrl: string;
  databaseUrl: string;
  workerUrl: string;
}): void {
  process.env[BASE_URL] = targets.baseUrl;
  process.env[DATABASE_URL] = targets.databaseUrl;
  process.env[WORKER_URL] = targets.workerUrl;
}

function published(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is unset: run the tests through playwright.config.ts`);
  return value;
}

/** The console under test, e.g. `http://127.0.0.1:41234`. */
export function e2eBaseUrl(): string {
  return published(BASE_URL);
}

/** The full-mode worker of the run (`/healthz`, `/metrics`). */
export function e2eWorkerUrl(): string {
  return published(WORKER_URL);
}

export function e2eDatabaseUrl(): string {
  return published(DATABASE_URL);
}

/**
 * The environment of a child process: this process's (PATH, HOME…) without any Cyclium or
 * database setting of the developer's shell, plus the overrides, so runs are reproducible.
 */
export function childProcessEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !name.startsWith("CYCLIUM_") && name !== "DATABASE_URL" && name !== "PORT",
    ),
  );
  return { ...inherited, NEXT_TELEMETRY_DISABLED: "1", ...overrides };
}
