import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Queryable } from "../db/index";
import type { Logger } from "../telemetry/index";
import { BUS_CHANNEL } from "./bus-wire-format";
import { PgBus } from "./pg-bus";
import type { BusEvent } from "./types";

let db: TestDatabase;
const opened: PgBus[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((bus) => bus.close()));
});
afterAll(async () => {
  await db.drop();
});

async function startBus(nodeIdentity: string, logger?: Logger): Promise<PgBus> {
  const bus = await PgBus.start({
    db: db.pool,
    connection: db.url,
    nodeIdentity,
    cleanup: false,
    ...(logger ? { logger } : {}),
  });
  opened.push(bus);
  return bus;
}

/** Collects what one subscription receives. */
function collect(bus: PgBus, topic: string): BusEvent[] {
  const events: BusEvent[] = [];
  bus.subscribe(topic, (event) => void events.push(event));
  return events;
}

/**
 * Publishes a marker and waits until every collector has it. Notifications arrive in commit order,
 * so anything published earlier has been delivered (or never will be) by then: no fixed sleeps.
 */
async function flush(publisher: PgBus, collectors: BusEvent[][]): Promise<void> {
  const marker = await publisher.publish("test.marker", {});
  await vi.waitFor(() => {
    for (const events of collectors) expect(events.map((e) => e.id)).toContain(marker.id);
  });
}

describe("PgBus on PostgreSQL", () => {
  it("delivers one publish exactly once to every subscriber of three nodes, with one identity", async () => {
    const buses = await Promise.all(["node-a", "node-b", "node-c"].map((id) => startBus(id)));
    const byTopic = buses.map((bus) => collect(bus, "resource.updated"));
    const wildcard = buses.map((bus) => collect(bus, "*"));
    const pids = new Set(buses.map((bus) => bus.listener.backendPid));
    expect(pids.size).toBe(3);

    const published = await buses[1]!.publish("resource.updated", { resourceId: "r-1" });
    await flush(buses[0]!, wildcard);

    for (const events of byTopic) {
      expect(events).toHaveLength(1);
      expect(events[0]).toEqual({ ...published, source: "node-b" });
    }
    for (const events of wildcard) {
      expect(events.filter((e) => e.id === published.id)).toHaveLength(1);
    }
  });

  it("sends the publishes of one turn in one statement, each delivered once and in order", async () => {
    let notifyStatements = 0;
    const counting: Queryable = {
      query: (text, params) => {
        if (text.includes("pg_notify")) notifyStatements += 1;
        return db.pool.query(text, params);
      },
    };
    const publisher = await PgBus.start({
      db: counting,
      connection: db.url,
      nodeIdentity: "node-batch",
      cleanup: false,
    });
    opened.push(publisher);
    const receiver = await startBus("node-receiver");
    const all = collect(receiver, "*");

    const published = await Promise.all(
      Array.from({ length: 50 }, (_, n) => publisher.publish("batch.item", { n })),
    );
    await flush(publisher, [all]);

    const received = all.filter((event) => event.topic === "batch.item");
    expect(received.map((event) => event.id)).toEqual(published.map((event) => event.id));
    expect(received.map((event) => (event.payload as { n: number }).n)).toEqual(
      Array.from({ length: 50 }, (_, n) => n),
    );
    // 50 publishes of one turn, then the marker: two statements, not 51.
    expect(notifyStatements).toBe(2);
  });

  it("round-trips a payload over the NOTIFY limit through cyclium_bus_events", async () => {
    const [sender, receiver] = [await startBus("sender"), await startBus("receiver")];
    const received = collect(receiver, "report.ready");
    // Multi-byte characters: the limit is in bytes, not string length.
    const payload = { text: "é€".repeat(3_000), rows: Array.from({ length: 50 }, (_, i) => i) };

    const published = await sender.publish("report.ready", payload);
    await vi.waitFor(() => expect(received).toHaveLength(1));

    expect(received[0]).toEqual({ ...published, payload, source: "sender" });
    const { rows } = await db.pool.query<{ topic: string; id: string }>(
      "SELECT topic, payload->>'id' AS id FROM cyclium_bus_events",
    );
    expect(rows).toContainEqual({ topic: "report.ready", id: published.id });
  });

  it("publishes inside a transaction: delivered on commit, never on rollback", async () => {
    const bus = await startBus("tx-node");
    const received = collect(bus, "*");

    const client = await db.pool.connect();
    try {
      await client.query("BEGIN");
      const committed = await bus.publish("episode.completed", { n: 1 }, { tx: client });
      const big = await bus.publish(
        "episode.completed",
        { blob: "x".repeat(9_000) },
        { tx: client },
      );
      await flush(bus, [received]);
      expect(received.map((e) => e.id)).not.toContain(committed.id);
      await client.query("COMMIT");
      await vi.waitFor(() => expect(received.map((e) => e.id)).toContain(big.id));
      expect(received.map((e) => e.id)).toContain(committed.id);

      await client.query("BEGIN");
      const rolledBack = await bus.publish("episode.completed", { n: 2 }, { tx: client });
      await client.query("ROLLBACK");
      await flush(bus, [received]);
      expect(received.map((e) => e.id)).not.toContain(rolledBack.id);
    } finally {
      client.release();
    }
  });

  it("hands out the inline NOTIFY of an event for a caller's own statement", async () => {
    const bus = await startBus("inline-node");
    const received = collect(bus, "episode.completed");
    const notification = bus.inlineNotification("episode.completed", { n: 7 });
    if (notification === undefined) throw new Error("no inline notification");
    expect(notification.channel).toBe(BUS_CHANNEL);
    await db.pool.query("SELECT pg_notify($1, $2)", [notification.channel, notification.payload]);
    await vi.waitFor(() => expect(received).toHaveLength(1));
    expect(received[0]).toMatchObject({ payload: { n: 7 }, source: "inline-node" });
    expect(bus.inlineNotification("episode.completed", { blob: "x".repeat(9_000) })).toBe(
      undefined,
    );
  });

  it("reconnects and re-LISTENs after its backend is terminated, and logs it", async () => {
    const warnings: string[] = [];
    const infos: string[] = [];
    const logger: Logger = {
      debug: () => {},
      info: (_obj, msg) => void infos.push(msg ?? ""),
      warn: (_obj, msg) => void warnings.push(msg ?? ""),
      error: () => {},
    };
    const bus = await startBus("fragile", logger);
    const publisher = await startBus("publisher");
    const received = collect(bus, "after.reconnect");
    const oldPid = bus.listener.backendPid;

    await db.pool.query("SELECT pg_terminate_backend($1)", [oldPid]);

    await vi.waitFor(() => {
      expect(bus.listener.isConnected).toBe(true);
      expect(bus.listener.backendPid).not.toBe(oldPid);
    });
    expect(warnings.some((m) => m.includes("connection lost"))).toBe(true);
    expect(infos.some((m) => m.includes("reconnected"))).toBe(true);

    const published = await publisher.publish("after.reconnect", { ok: true });
    await vi.waitFor(() => expect(received.map((e) => e.id)).toEqual([published.id]));
  });

  it("isolates handlers and ignores foreign notifications on the bus channel", async () => {
    const errors: unknown[] = [];
    const bus = await startBus("isolated", {
      debug: () => {},
      info: () => {},
      warn: () => {},
      error: (obj) => void errors.push(obj),
    });
    bus.subscribe("t", () => {
      throw new Error("handler bug");
    });
    const received = collect(bus, "t");

    await db.pool.query("SELECT pg_notify($1, 'not a bus event')", [BUS_CHANNEL]);
    const published = await bus.publish("t", { v: 1 });

    await vi.waitFor(() => expect(received.map((e) => e.id)).toEqual([published.id]));
    expect(errors).toHaveLength(1);
  });

  it("cleans up stored events older than the retention", async () => {
    const bus = await startBus("janitor");
    await db.pool.query("DELETE FROM cyclium_bus_events");
    await bus.publish("old", { blob: "o".repeat(9_000) });
    await db.pool.query("UPDATE cyclium_bus_events SET inserted_at = now() - interval '2 hours'");
    await bus.publish("fresh", { blob: "f".repeat(9_000) });

    expect(await bus.deleteOldEvents(60 * 60_000)).toBe(1);
    const { rows } = await db.pool.query<{ topic: string }>("SELECT topic FROM cyclium_bus_events");
    expect(rows).toEqual([{ topic: "fresh" }]);
  });
});
