import { describe, expect, it, vi } from "vitest";
import type { Logger } from "../telemetry/index";
import { MemoryBus } from "./memory-bus";
import type { BusEvent } from "./types";

function recordingLogger(): Logger & { errors: unknown[] } {
  const errors: unknown[] = [];
  const noop = (): void => {};
  return { debug: noop, info: noop, warn: noop, error: (obj) => errors.push(obj), errors };
}

describe("MemoryBus", () => {
  it("delivers an event to topic and wildcard subscribers with the identity fixed at publish", async () => {
    const bus = new MemoryBus({ nodeIdentity: "node-a" });
    const byTopic: BusEvent[] = [];
    const byWildcard: BusEvent[] = [];
    bus.subscribe("resource.updated", (e) => void byTopic.push(e));
    bus.subscribe("*", (e) => void byWildcard.push(e));
    bus.subscribe("other.topic", () => {
      throw new Error("must not be called");
    });

    const published = await bus.publish("resource.updated", { id: "r1" });

    expect(published.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number.isNaN(Date.parse(published.publishedAt))).toBe(false);
    expect(published.source).toBe("node-a");
    expect(byTopic).toEqual([{ ...published }]);
    expect(byWildcard).toEqual([{ ...published }]);
  });

  it("keeps handlers isolated: a throwing or rejecting handler is logged, the rest still run", async () => {
    const logger = recordingLogger();
    const bus = new MemoryBus({ logger });
    const seen: string[] = [];
    bus.subscribe("t", () => {
      throw new Error("sync boom");
    });
    bus.subscribe("t", () => Promise.reject(new Error("async boom")));
    bus.subscribe("t", (e) => void seen.push(e.id));

    const event = await bus.publish("t", 1);
    await bus.drain();

    expect(seen).toEqual([event.id]);
    expect(logger.errors).toHaveLength(2);
  });

  it("stops delivering after unsubscribe; a mid-dispatch unsubscribe takes effect next event", async () => {
    const bus = new MemoryBus();
    let unsubscribeSecond = (): void => {};
    const first = vi.fn(() => unsubscribeSecond());
    bus.subscribe("t", first);
    const second = vi.fn();
    unsubscribeSecond = bus.subscribe("t", second);

    await bus.publish("t", null);
    await bus.publish("t", null);

    expect(first).toHaveBeenCalledTimes(2);
    // Subscribed when the first event arrived, so it still receives that one.
    expect(second).toHaveBeenCalledTimes(1);
  });

  it("hands subscribers the JSON form of the payload, as the PostgreSQL bus would", async () => {
    const bus = new MemoryBus();
    const received: unknown[] = [];
    bus.subscribe("t", (e) => void received.push(e.payload));
    await bus.publish("t", { at: new Date("2026-01-01T00:00:00Z"), gone: undefined });
    await bus.publish("t", undefined);
    expect(received).toEqual([{ at: "2026-01-01T00:00:00.000Z" }, null]);
  });

  it("refuses the wildcard and empty topics as publish targets", async () => {
    const bus = new MemoryBus();
    await expect(bus.publish("*", {})).rejects.toThrow(/wildcard/);
    await expect(bus.publish("", {})).rejects.toThrow(/non-empty/);
  });

  it("waits for running async handlers on close and rejects later publishes", async () => {
    const bus = new MemoryBus();
    let finished = false;
    bus.subscribe("t", async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      finished = true;
    });
    await bus.publish("t", {});
    await bus.close();
    expect(finished).toBe(true);
    await expect(bus.publish("t", {})).rejects.toThrow(/closed/);
  });
});
