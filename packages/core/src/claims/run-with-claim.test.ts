import { describe, expect, it } from "vitest";
import { spyQueryable } from "../db/testing/index";
import { Telemetry, type TelemetryEvent } from "../telemetry/index";
import { createWorkClaims } from "./create-work-claims";
import { startHeartbeat } from "./heartbeat";
import { MemoryWorkClaims } from "./memory-work-claims";
import { runWithAcquiredClaim, runWithClaim } from "./run-with-claim";
import type { RenewClaimResult } from "./work-claims";

describe("runWithClaim with in-memory claims", () => {
  it("marks the claim done when the work returns", async () => {
    const claims = new MemoryWorkClaims();
    const result = await runWithClaim(
      { claims, dedupeKey: "k", owner: "n1", leaseSeconds: 5 },
      ({ attempt, signal }) => Promise.resolve({ attempt, aborted: signal.aborted }),
    );
    expect(result).toEqual({
      kind: "done",
      value: { attempt: 1, aborted: false },
      released: true,
    });
    expect(claims.get("k")?.state).toBe("done");
  });

  it("answers busy for a key another node holds (setBusy)", async () => {
    const claims = new MemoryWorkClaims();
    claims.setBusy("k");
    let ran = false;
    const result = await runWithClaim({ claims, dedupeKey: "k", owner: "n1" }, () => {
      ran = true;
      return Promise.resolve();
    });
    expect(result).toEqual({ kind: "busy" });
    expect(ran).toBe(false);
    claims.clearBusy("k");
    expect((await claims.acquire({ dedupeKey: "k", owner: "n1", leaseSeconds: 1 })).ok).toBe(true);
  });

  it("marks the claim failed and rethrows when the work throws", async () => {
    const claims = new MemoryWorkClaims();
    await expect(
      runWithClaim({ claims, dedupeKey: "k", owner: "n1" }, () =>
        Promise.reject(new Error("strategy blew up")),
      ),
    ).rejects.toThrow("strategy blew up");
    expect(claims.get("k")).toMatchObject({
      state: "failed",
      errorDetail: "Error: strategy blew up",
    });
  });

  it("runs work under a claim acquired elsewhere and skips the complete its work released", async () => {
    const claims = new MemoryWorkClaims();
    const acquired = await claims.acquire({ dedupeKey: "k", owner: "n1", leaseSeconds: 5 });
    if (!acquired.ok) throw new Error("busy");
    const options = { claims, dedupeKey: "k", owner: "n1", leaseSeconds: 5 };
    const start = { ...acquired, leaseStartedAt: performance.now() };
    const released = await runWithAcquiredClaim(options, start, ({ markReleased }) => {
      markReleased();
      return Promise.resolve("ran");
    });
    expect(released).toEqual({ kind: "done", value: "ran", released: true });
    expect(claims.get("k")?.state).toBe("claimed");
    const completed = await runWithAcquiredClaim(options, start, ({ attempt }) =>
      Promise.resolve(attempt),
    );
    expect(completed).toEqual({ kind: "done", value: 1, released: true });
    expect(claims.get("k")?.state).toBe("done");
  });

  it("stops the heartbeat on request once the renew in flight is answered, and ignores its answer", async () => {
    const claims = new MemoryWorkClaims();
    const acquired = await claims.acquire({ dedupeKey: "k", owner: "n1", leaseSeconds: 0.3 });
    if (!acquired.ok) throw new Error("busy");
    let renewSent!: () => void;
    const sent = new Promise<void>((resolve) => (renewSent = resolve));
    let answer!: (result: RenewClaimResult) => void;
    // A renew (every lease/3 = 100 ms) in flight when the work is about to release the claim.
    claims.renew = () => {
      renewSent();
      return new Promise((resolve) => (answer = resolve));
    };
    const options = { claims, dedupeKey: "k", owner: "n1", leaseSeconds: 0.3 };
    const start = { ...acquired, leaseStartedAt: performance.now() };
    const order: string[] = [];
    const result = await runWithAcquiredClaim(
      options,
      start,
      async ({ signal, stopHeartbeat, markReleased }) => {
        await sent;
        const stopped = stopHeartbeat().then(() => order.push("stopped"));
        await new Promise((resolve) => setTimeout(resolve, 20));
        order.push("answered");
        answer({ ok: false, error: "not_owner" });
        await stopped;
        // Only now does the runner send the write that releases the claim.
        markReleased();
        await new Promise((resolve) => setTimeout(resolve, 50));
        return signal.aborted;
      },
    );
    expect(order).toEqual(["answered", "stopped"]);
    expect(result).toEqual({ kind: "done", value: false, released: true });
  });

  it("emits the claim events it is given a telemetry for", async () => {
    const telemetry = new Telemetry();
    const names: TelemetryEvent["name"][] = [];
    telemetry.subscribe((event) => names.push(event.name));
    const claims = new MemoryWorkClaims({ telemetry });
    await runWithClaim({ claims, dedupeKey: "k", owner: "n1" }, () => Promise.resolve());
    expect(names).toEqual(["cyclium.work_claims.acquired", "cyclium.work_claims.completed"]);
  });
});

describe("passthrough claims (CYCLIUM_WORK_CLAIMS=none)", () => {
  it("performs zero queries for every operation, the heartbeat and a full run", async () => {
    const spy = spyQueryable();
    const telemetry = new Telemetry();
    const events: TelemetryEvent[] = [];
    telemetry.subscribe((event) => events.push(event));
    const claims = createWorkClaims({ mode: "none", db: spy, telemetry });
    expect(claims.off).toBe(true);

    const acquired = await claims.acquire({ dedupeKey: "k", owner: "n1", leaseSeconds: 0.3 });
    expect(acquired).toEqual({ ok: true, attempt: 1, stolen: false });
    expect(await claims.renew({ dedupeKey: "k", owner: "n1", leaseSeconds: 1 })).toEqual({
      ok: true,
    });
    expect(await claims.complete({ dedupeKey: "k", owner: "n1" })).toEqual({ ok: true });
    expect(await claims.fail({ dedupeKey: "k", owner: "n1", errorDetail: "x" })).toEqual({
      ok: true,
    });
    expect(await claims.reclaimExpired({ limit: 10 })).toEqual({ expiredKeys: [] });

    const heartbeat = startHeartbeat({ claims, dedupeKey: "k", owner: "n1", leaseSeconds: 0.3 });
    await new Promise((resolve) => setTimeout(resolve, 250));
    heartbeat.stop();
    const run = await runWithClaim(
      { claims, dedupeKey: "k", owner: "n1", leaseSeconds: 0.3 },
      async ({ fence, holds }) => ({ fence, holds: await holds() }),
    );
    expect(run).toEqual({ kind: "done", value: { fence: null, holds: true }, released: true });

    expect(spy.calls).toHaveLength(0);
    expect(events).toHaveLength(0);
  });
});
