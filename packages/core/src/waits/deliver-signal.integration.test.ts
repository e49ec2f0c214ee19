import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverSignal } from "./deliver-signal";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.drop();
});

async function episode(status: string): Promise<string> {
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type)
     VALUES ('approver', 'decide', $1, 'manual') RETURNING id`,
    [status],
  );
  return rows[0]!.id;
}

const send = (episodeId: string, idempotencyKey?: string) =>
  deliverSignal(
    {
      episodeId,
      name: "approval",
      payload: { approved: true },
      sentBy: "test",
      ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    },
    db.pool,
  );

describe("deliverSignal", () => {
  it("answers a retry with its key as a duplicate, even once the episode has ended", async () => {
    const id = await episode("pending");
    const first = await send(id, "k-1");
    expect(first).toMatchObject({ kind: "delivered", woke: false });
    const signalId = first.kind === "delivered" ? first.signalId : "";
    expect(await send(id, "k-1")).toEqual({ kind: "duplicate", signalId });
    // The episode consumes the signal and completes before the sender's retry arrives.
    await db.pool.query(`UPDATE cyclium_episodes SET status = 'completed' WHERE id = $1`, [id]);
    expect(await send(id, "k-1")).toEqual({ kind: "duplicate", signalId });
    expect(await send(id, "k-2")).toEqual({ kind: "ended", status: "completed" });
    expect(await send(id)).toEqual({ kind: "ended", status: "completed" });
    const { rows } = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM cyclium_signals WHERE episode_id = $1`,
      [id],
    );
    expect(rows[0]?.n).toBe(1);
  });

  it("answers not_found for an unknown episode", async () => {
    expect(await send("00000000-0000-4000-8000-000000000000", "k-1")).toEqual({
      kind: "not_found",
    });
  });
});
