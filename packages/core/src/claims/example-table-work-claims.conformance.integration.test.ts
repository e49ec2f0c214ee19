import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect } from "vitest";
import { silentLogger, Telemetry } from "../telemetry/index";
import type { ClaimState, WorkClaims } from "./index";
import { loadWorkClaims } from "./load-work-claims";
import { describeWorkClaimsConformance } from "./testing/index";

// docs/work-claims.md's example adapter, loaded the way a deployment loads it (a module path in
// CYCLIUM_WORK_CLAIMS), must pass the same suite as the built-in adapters.
const EXAMPLE = fileURLToPath(new URL("./testing/example-table-work-claims.ts", import.meta.url));

let db: TestDatabase;
let claims: WorkClaims;

beforeAll(async () => {
  db = await createTestDatabase();
  claims = await loadWorkClaims({
    setting: EXAMPLE,
    db: db.pool,
    telemetry: new Telemetry(),
    logger: silentLogger,
  });
  expect(claims.usesSqlFence).toBeUndefined();
});

afterAll(async () => {
  await db.drop();
});

describeWorkClaimsConformance("example table adapter (module path)", () => claims, {
  inspect: async (key) => {
    const { rows } = await db.pool.query<{ state: ClaimState; attempt: number }>(
      "SELECT state, attempt FROM example_work_claims WHERE dedupe_key = $1",
      [key],
    );
    return rows[0];
  },
});
