import { describe, expect, it } from "vitest";
import { isCycliumError } from "../errors/index";
import { canonicalHash } from "./canonical-json";
import { dedupeKey, scheduleWindow } from "./dedupe-key";

const base = { actorId: "resource_monitor", expectationId: "check_limits", env: null };

describe("dedupeKey", () => {
  it("keys a schedule by its fire instant, to the minute, in UTC", () => {
    const window = new Date("2026-11-29T09:00:42.123+01:00");
    expect(dedupeKey({ ...base, trigger: "schedule", window })).toBe(
      "schedule:resource_monitor:check_limits:2026-11-29T08:00Z",
    );
  });

  it("keys an event by the hash of its id and canonical payload", () => {
    const one = dedupeKey({
      ...base,
      trigger: "event",
      event: { id: "evt-1", payload: { resource: "db", usage: 0.93 } },
    });
    const reordered = dedupeKey({
      ...base,
      trigger: "event",
      event: { id: "evt-1", payload: { usage: 0.93, resource: "db" } },
    });
    const otherEvent = dedupeKey({
      ...base,
      trigger: "event",
      event: { id: "evt-2", payload: { resource: "db", usage: 0.93 } },
    });
    const hash = canonicalHash({ id: "evt-1", payload: { resource: "db", usage: 0.93 } });
    expect(one).toBe(`event:resource_monitor:check_limits:${hash}`);
    expect(reordered).toBe(one);
    expect(otherEvent).not.toBe(one);
  });

  it("keys a poll by its context, a missing context hashing to a fixed value", () => {
    const none = dedupeKey({ ...base, trigger: "poll" });
    expect(none).toBe(`poll:resource_monitor:check_limits:${canonicalHash(null)}`);
    expect(dedupeKey({ ...base, trigger: "poll", context: null })).toBe(none);
    expect(dedupeKey({ ...base, trigger: "poll", context: { over: ["db"] } })).not.toBe(none);
  });

  it("keys a manual fire only when it carries an idempotency key", () => {
    expect(dedupeKey({ ...base, trigger: "manual", idempotencyKey: "req-42" })).toBe(
      "manual:resource_monitor:check_limits:req-42",
    );
    expect(dedupeKey({ ...base, trigger: "manual" })).toBeNull();
    expect(dedupeKey({ ...base, trigger: "manual", idempotencyKey: null })).toBeNull();
  });

  it("appends @env when the node's env is set", () => {
    expect(dedupeKey({ ...base, env: "rc", trigger: "manual", idempotencyKey: "r" })).toBe(
      "manual:resource_monitor:check_limits:r@rc",
    );
    const window = new Date("2026-11-29T09:00:00Z");
    expect(dedupeKey({ ...base, env: "demo", trigger: "schedule", window })).toBe(
      "schedule:resource_monitor:check_limits:2026-11-29T09:00Z@demo",
    );
  });

  it("refuses keys longer than the column", () => {
    let caught: unknown;
    try {
      dedupeKey({ ...base, trigger: "manual", idempotencyKey: "x".repeat(600) });
    } catch (error) {
      caught = error;
    }
    expect(isCycliumError(caught, "invalid_input")).toBe(true);
  });
});

describe("scheduleWindow", () => {
  it("rejects an invalid date", () => {
    expect(() => scheduleWindow(new Date("nope"))).toThrow(/not a valid date/);
  });
});
