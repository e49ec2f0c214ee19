import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeCappedRefusalSummaries } from "../audit/audited";
import { createTriggerEndpoints } from "../rest/trigger-endpoints";
import { handleTrpcHttpRequest } from "../trpc/http-handler";
import { PEER_ADDRESS_HEADER } from "./client-address";
import { REFUSALS_PER_MINUTE } from "./refusal-limiter";
import { SESSION_COOKIE } from "./session-cookie";
import { seedTestUsers, testContext, type TTestUsers } from "./testing/auth-test-kit";

let database: TestDatabase;
let users: TTestUsers;

beforeAll(async () => {
  database = await createTestDatabase();
  users = await seedTestUsers(database.pool);
});

afterAll(async () => {
  await database.drop();
});

/** One tRPC read as the server's peer hook would present it: the socket address in a header. */
async function trpcRead(address: string, signedIn: boolean): Promise<Response> {
  const headers = new Headers({ [PEER_ADDRESS_HEADER]: address });
  if (signedIn) headers.set("cookie", `${SESSION_COOKIE}=session-of-the-viewer`);
  return handleTrpcHttpRequest(
    new Request("http://console.test/api/trpc/overview.stats", { headers }),
    () =>
      Promise.resolve(testContext(database.pool, signedIn ? users.viewer : null, { ip: address })),
    () => database.pool,
  );
}

describe("the rate limit for anonymous and refused calls", () => {
  it("answers 429 to an address past its refusals, before any work, and only to it", async () => {
    const prober = "203.0.113.7";
    for (let i = 0; i < REFUSALS_PER_MINUTE; i += 1) {
      expect((await trpcRead(prober, false)).status).toBe(401);
    }
    const limited = await trpcRead(prober, false);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = (await limited.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/too many refused requests/i);

    // Another address is unaffected; a signed-in colleague behind the same address still works.
    expect((await trpcRead("198.51.100.9", false)).status).toBe(401);
    expect((await trpcRead(prober, true)).status).toBe(200);

    // REST shares the budget: the same address gets 429 there too, with a readable body.
    const endpoints = createTriggerEndpoints({
      getDb: () => database.pool,
      getTriggerServices: () => {
        throw new Error("not reached: the limit answers first");
      },
    });
    const rest = await endpoints.list(
      new Request("http://console.test/api/v1/tenants/default/triggers", {
        headers: { [PEER_ADDRESS_HEADER]: prober },
      }),
      { params: Promise.resolve({ t: "default" }) },
    );
    expect(rest.status).toBe(429);
    expect(await rest.json()).toMatchObject({ code: "too_many_refusals" });

    // None of the prober's refusals goes unrecorded: its rows and its summary rows (the 429s,
    // which cost no query, and the refusals past the anonymous row cap) add up to every call.
    await writeCappedRefusalSummaries({ all: true });
    const { rows } = await database.pool.query<{ action: string; refusals: number }>(
      `SELECT action, coalesce((detail->>'refusals')::int, 1) AS refusals
         FROM cyclium_audit_log WHERE ip = $1 AND outcome = 'refused'`,
      [prober],
    );
    const total = rows.reduce((sum, row) => sum + row.refusals, 0);
    expect(total).toBe(REFUSALS_PER_MINUTE + 2);
    const summaries = await database.pool.query<{ reasons: Record<string, number> }>(
      `SELECT detail->'reasons' AS reasons FROM cyclium_audit_log
        WHERE ip = $1 AND action = 'refusals.capped'`,
      [prober],
    );
    const rateLimited = summaries.rows.reduce(
      (sum, row) => sum + (row.reasons.rate_limited ?? 0),
      0,
    );
    expect(rateLimited).toBe(2);
  });
});
