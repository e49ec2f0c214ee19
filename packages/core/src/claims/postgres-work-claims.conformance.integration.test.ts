import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll } from "vitest";
import type { ClaimState } from "./index";
import { PostgresWorkClaims } from "./postgres-work-claims";
import { describeWorkClaimsConformance } from "./testing/index";

// The default adapter against a real database: leases run out on PostgreSQL's clock, so the
// three time-based cases each wait one 1-second lease (about 4 s for the file).
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.drop();
});

describeWorkClaimsConformance("postgres", () => new PostgresWorkClaims({ db: db.pool }), {
  inspect: async (key) => {
    const { rows } = await db.pool.query<{ state: ClaimState; attempt: number; steals: number }>(
      "SELECT state, attempt, steals FROM cyclium_work_claims WHERE dedupe_key = $1",
      [key],
    );
    return rows[0];
  },
});
