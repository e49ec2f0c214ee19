import { describe, expect, it } from "vitest";
import { silentLogger, Telemetry, type TelemetryEvent } from "../telemetry/index";
import { retryTransient, type WriteRetryOptions } from "./write-retry";

const refused = (): Error =>
  Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

function options(overrides: Partial<WriteRetryOptions> = {}): WriteRetryOptions & {
  events: TelemetryEvent[];
} {
  const telemetry = new Telemetry();
  const events: TelemetryEvent[] = [];
  telemetry.subscribe((event) => events.push(event));
  return {
    write: "step",
    mayRetry: () => true,
    telemetry,
    logger: silentLogger,
    meta: { episode_id: "e1" },
    initialDelayMs: 1,
    maxDelayMs: 4,
    events,
    ...overrides,
  };
}

describe("retryTransient", () => {
  it("resends after transient errors, marking every call after the first a resend", async () => {
    const calls: boolean[] = [];
    const opts = options();
    const value = await retryTransient((resend) => {
      calls.push(resend);
      return calls.length < 4 ? Promise.reject(refused()) : Promise.resolve("written");
    }, opts);
    expect(value).toBe("written");
    expect(calls).toEqual([false, true, true, true]);
    expect(opts.events.map((event) => event.name)).toEqual([
      "cyclium.episode.write_retry",
      "cyclium.episode.write_retry",
      "cyclium.episode.write_retry",
    ]);
    expect(opts.events[0]?.metadata).toMatchObject({
      episode_id: "e1",
      write: "step",
      error_code: "ECONNREFUSED",
    });
  });

  it("throws a permanent error at once", async () => {
    let calls = 0;
    const unique = Object.assign(new Error("duplicate key"), { code: "23505" });
    await expect(
      retryTransient(() => {
        calls += 1;
        return Promise.reject(unique);
      }, options()),
    ).rejects.toBe(unique);
    expect(calls).toBe(1);
  });

  it("gives up with the last error once the claim is no longer held", async () => {
    let calls = 0;
    let held = true;
    const error = refused();
    await expect(
      retryTransient(
        () => {
          calls += 1;
          if (calls === 3) held = false;
          return Promise.reject(error);
        },
        options({ mayRetry: () => held }),
      ),
    ).rejects.toBe(error);
    expect(calls).toBe(3);
  });

  it("stops waiting when the signal fires", async () => {
    const controller = new AbortController();
    const error = refused();
    const pending = retryTransient(
      () => Promise.reject(error),
      options({ signal: controller.signal, initialDelayMs: 60_000, maxDelayMs: 60_000 }),
    );
    setTimeout(() => controller.abort(), 10);
    await expect(pending).rejects.toBe(error);
  });
});
