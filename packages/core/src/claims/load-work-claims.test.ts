import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Queryable } from "../db/index";
import { isCycliumError } from "../errors/index";
import { silentLogger, Telemetry } from "../telemetry/index";
import { loadWorkClaims } from "./load-work-claims";
import { MemoryWorkClaims } from "./memory-work-claims";
import { PassthroughWorkClaims } from "./passthrough-work-claims";
import { PostgresWorkClaims } from "./postgres-work-claims";

// Loading must not touch the database for built-ins: a query here is a bug.
const db: Queryable = {
  query: () => Promise.reject(new Error("loadWorkClaims queried the database")),
};
const deps = { db, telemetry: new Telemetry(), logger: silentLogger };
const fixtures = fileURLToPath(new URL("./testing/fixtures/", import.meta.url));

async function loadError(setting: string, baseDir?: string): Promise<string> {
  const error: unknown = await loadWorkClaims({
    ...deps,
    setting,
    ...(baseDir === undefined ? {} : { baseDir }),
  }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isCycliumError(error, "invalid_config")).toBe(true);
  return (error as Error).message;
}

describe("loadWorkClaims", () => {
  it("builds the built-in adapters by name; empty means postgres, none means off", async () => {
    expect(await loadWorkClaims({ ...deps, setting: "postgres" })).toBeInstanceOf(
      PostgresWorkClaims,
    );
    expect(await loadWorkClaims({ ...deps, setting: " " })).toBeInstanceOf(PostgresWorkClaims);
    expect(await loadWorkClaims({ ...deps, setting: "memory" })).toBeInstanceOf(MemoryWorkClaims);
    for (const setting of ["off", "none"]) {
      const claims = await loadWorkClaims({ ...deps, setting });
      expect(claims).toBeInstanceOf(PassthroughWorkClaims);
      expect(claims.off).toBe(true);
    }
  });

  it("names every callback an adapter module lacks", async () => {
    const message = await loadError("./incomplete-adapter.ts", fixtures);
    expect(message).toBe(
      "CYCLIUM_WORK_CLAIMS=./incomplete-adapter.ts: the adapter is missing reclaimExpired(), holds() (see docs/work-claims.md)",
    );
  });

  it("rejects a module without a factory, a missing module and a non-boolean capability", async () => {
    expect(await loadError(`${fixtures}no-factory-adapter.ts`)).toMatch(
      /exports neither a default factory nor createWorkClaims$/,
    );
    expect(await loadError("./does-not-exist.js", fixtures)).toMatch(
      /^CYCLIUM_WORK_CLAIMS=\.\/does-not-exist\.js: the module could not be loaded/,
    );
    expect(await loadError("no-such-claims-package-xyz")).toMatch(/could not be loaded/);
    expect(await loadError("./bad-capability-adapter.ts", fixtures)).toMatch(
      /usesSqlFence must be a boolean \(got string\)$/,
    );
  });
});
