import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { isCycliumError } from "../errors/index";
import { startHeartbeat } from "./heartbeat";
import { MemoryWorkClaims } from "./memory-work-claims";
import type { RenewClaimOptions, RenewClaimResult } from "./work-claims";

/** Memory claims whose renew can be scripted per call. */
class ScriptedClaims extends MemoryWorkClaims {
  renewCalls = 0;
  constructor(private readonly script: (call: number) => Promise<RenewClaimResult> | "real") {
    super();
  }
  override renew(options: RenewClaimOptions): Promise<RenewClaimResult> {
    this.renewCalls += 1;
    const step = this.script(this.renewCalls);
    return step === "real" ? super.renew(options) : step;
  }
}

const key = "event:a:b:hash";

async function acquired(claims: MemoryWorkClaims, leaseSeconds: number) {
  const result = await claims.acquire({ dedupeKey: key, owner: "n1", leaseSeconds });
  if (!result.ok) throw new Error("acquire failed");
  return result.attempt;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("startHeartbeat", () => {
  it("is not fooled by a wall clock that jumps ten minutes ahead", async () => {
    const claims = new ScriptedClaims(() => "real");
    const attempt = await acquired(claims, 0.3);
    const heartbeat = startHeartbeat({
      claims,
      dedupeKey: key,
      owner: "n1",
      attempt,
      leaseSeconds: 0.3,
    });
    vi.useFakeTimers({ now: Date.now() + 10 * 60_000, toFake: ["Date"] });
    await sleep(400);
    expect(heartbeat.signal.aborted).toBe(false);
    expect(claims.renewCalls).toBeGreaterThanOrEqual(2);
    heartbeat.stop();
  });

  it("renews every lease/3 until stopped, without aborting the work", async () => {
    const claims = new ScriptedClaims(() => "real");
    const attempt = await acquired(claims, 0.3);
    const heartbeat = startHeartbeat({
      claims,
      dedupeKey: key,
      owner: "n1",
      attempt,
      leaseSeconds: 0.3,
    });
    await sleep(560);
    // Nominally at 100, 200, 300, 400 and 500 ms; timers may run late on a loaded machine.
    expect(claims.renewCalls).toBeGreaterThanOrEqual(3);
    expect(claims.renewCalls).toBeLessThanOrEqual(6);
    expect(heartbeat.signal.aborted).toBe(false);
    heartbeat.stop();
    expect(await heartbeat.ended).toBe("stopped");
    const calls = claims.renewCalls;
    await sleep(250);
    expect(claims.renewCalls).toBe(calls);
    expect(heartbeat.signal.aborted).toBe(false);
  });

  it("stops and aborts the work on not_owner", async () => {
    const claims = new ScriptedClaims(() => Promise.resolve({ ok: false, error: "not_owner" }));
    const heartbeat = startHeartbeat({ claims, dedupeKey: key, owner: "n1", leaseSeconds: 0.3 });
    expect(await heartbeat.ended).toBe("lease_lost");
    expect(heartbeat.signal.aborted).toBe(true);
    expect(isCycliumError(heartbeat.signal.reason, "lease_lost")).toBe(true);
    expect(claims.renewCalls).toBe(1);
  });

  it("retries a renew that throws and keeps the work when the database comes back", async () => {
    const claims = new ScriptedClaims((call) =>
      call <= 2 ? Promise.reject(new Error("ECONNRESET")) : "real",
    );
    const attempt = await acquired(claims, 0.6);
    const heartbeat = startHeartbeat({
      claims,
      dedupeKey: key,
      owner: "n1",
      attempt,
      leaseSeconds: 0.6,
    });
    await sleep(900);
    expect(claims.renewCalls).toBeGreaterThanOrEqual(4);
    expect(heartbeat.signal.aborted).toBe(false);
    heartbeat.stop();
  });

  it("aborts the work by its own reckoning before the lease lapses when renewals keep failing", async () => {
    const claims = new ScriptedClaims(() => Promise.reject(new Error("database unreachable")));
    const startedAt = performance.now();
    const heartbeat = startHeartbeat({
      claims,
      dedupeKey: key,
      owner: "n1",
      leaseSeconds: 1.2,
      leaseStartedAt: startedAt,
    });
    expect(await heartbeat.ended).toBe("lease_lapsed");
    const elapsed = performance.now() - startedAt;
    // Default margin is lease/10: abort at ~1080 ms, before the 1200 ms lease runs out.
    expect(elapsed).toBeGreaterThanOrEqual(1070);
    expect(elapsed).toBeLessThan(1200);
    expect(isCycliumError(heartbeat.signal.reason, "lease_lapsed")).toBe(true);
    expect(claims.renewCalls).toBeGreaterThanOrEqual(2);
  });

  it("treats a renew that never answers as failed", async () => {
    const claims = new ScriptedClaims(() => new Promise<never>(() => undefined));
    const heartbeat = startHeartbeat({ claims, dedupeKey: key, owner: "n1", leaseSeconds: 0.45 });
    expect(await heartbeat.ended).toBe("lease_lapsed");
  });

  it("restarts its loop after a crash and goes on renewing", async () => {
    const claims = new ScriptedClaims((call) =>
      // A broken adapter answering garbage makes the loop throw outside its retry handling.
      call === 1 ? Promise.resolve(undefined as unknown as RenewClaimResult) : "real",
    );
    const attempt = await acquired(claims, 0.3);
    const heartbeat = startHeartbeat({
      claims,
      dedupeKey: key,
      owner: "n1",
      attempt,
      leaseSeconds: 0.3,
      restartDelayMs: 10,
    });
    await sleep(500);
    expect(heartbeat.restarts).toBe(1);
    expect(claims.renewCalls).toBeGreaterThanOrEqual(3);
    expect(heartbeat.signal.aborted).toBe(false);
    heartbeat.stop();
  });

  it("aborts the work when the node shuts down", async () => {
    const claims = new ScriptedClaims(() => "real");
    await acquired(claims, 10);
    const shutdown = new AbortController();
    const heartbeat = startHeartbeat({
      claims,
      dedupeKey: key,
      owner: "n1",
      leaseSeconds: 10,
      signal: shutdown.signal,
    });
    shutdown.abort(new Error("SIGTERM"));
    expect(await heartbeat.ended).toBe("shutdown");
    expect(heartbeat.signal.aborted).toBe(true);
  });
});
