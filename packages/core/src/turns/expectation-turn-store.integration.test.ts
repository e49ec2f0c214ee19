import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresExpectationTurns } from "./expectation-turn-store";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.drop();
});

const at = (iso: string) => new Date(iso);

describe("cyclium_expectation_turns", () => {
  it("lets exactly one of many nodes claim a due turn, and only from the value it read", async () => {
    const key = { actorId: "a", expectationId: "tick", env: null };
    const nodes = Array.from({ length: 5 }, () => new PostgresExpectationTurns(db.pool));
    await Promise.all(
      nodes.map((node) => node.ensure(key, "cron * * * * * UTC", at("2026-12-05T10:00:00Z"))),
    );
    const due = await nodes[0]?.read(key);
    expect(due).toEqual(at("2026-12-05T10:00:00Z"));
    const turn = { due: due ?? null, next: at("2026-12-05T10:01:00Z"), fired: due ?? null };
    const won = await Promise.all(nodes.map((node) => node.claim(key, turn)));
    expect(won.filter(Boolean)).toHaveLength(1);
    // A node that read before the claim and claims late finds the row moved on.
    expect(await nodes[1]?.claim(key, turn)).toBe(false);
    expect(await nodes[2]?.read(key)).toEqual(at("2026-12-05T10:01:00Z"));
  });

  it("keeps the stored turn for the same rule and env, and starts afresh for a changed rule", async () => {
    const turns = new PostgresExpectationTurns(db.pool);
    const key = { actorId: "b", expectationId: "poll", env: "staging" };
    await turns.ensure(key, "poll 1000", null);
    await turns.claim(key, { due: null, next: at("2026-12-05T10:00:01Z"), fired: null });
    await turns.ensure(key, "poll 1000", null);
    expect(await turns.read(key)).toEqual(at("2026-12-05T10:00:01Z"));
    // Another env is another row.
    expect(await turns.read({ ...key, env: null })).toBeUndefined();
    await turns.ensure(key, "poll 5000", null);
    expect(await turns.read(key)).toBeNull();
  });
});
