import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { isCycliumError } from "../errors/index";
import { LeaseKeeper } from "./lease-keeper";
import { MemoryWorkClaims } from "./memory-work-claims";
import type { RenewClaimOptions, RenewClaimResult } from "./work-claims";

/** Memory claims (no renewMany: the keeper renews each) counting renewals per key. */
class CountingClaims extends MemoryWorkClaims {
  readonly renewals = new Map<string, number>();
  override renew(options: RenewClaimOptions): Promise<RenewClaimResult> {
    this.renewals.set(options.dedupeKey, (this.renewals.get(options.dedupeKey) ?? 0) + 1);
    return super.renew(options);
  }
}

async function holdAll(keeper: LeaseKeeper, claims: MemoryWorkClaims, keys: string[]) {
  return Promise.all(
    keys.map(async (dedupeKey) => {
      const leaseStartedAt = performance.now();
      const acquired = await claims.acquire({ dedupeKey, owner: "n1", leaseSeconds: 1.5 });
      if (!acquired.ok) throw new Error("acquire failed");
      return keeper.hold({ dedupeKey, attempt: acquired.attempt, leaseStartedAt });
    }),
  );
}

describe("LeaseKeeper with an adapter without renewMany", () => {
  it("renews every claim it holds each tick and aborts only the work of a claim that was lost", async () => {
    const claims = new CountingClaims();
    const keeper = new LeaseKeeper({ claims, owner: "n1", leaseSeconds: 1.5 });
    const [a, b, c] = await holdAll(keeper, claims, ["a", "b", "c"]);
    // Another task released b's claim behind the keeper's back: its next renew finds it gone.
    await claims.complete({ dedupeKey: "b", owner: "n1", attempt: 1 });
    expect(await b!.ended).toBe("lease_lost");
    expect(isCycliumError(b!.signal.reason, "lease_lost")).toBe(true);
    // Past the 1.5 s lease: a and c live on because they are renewed.
    await sleep(2000);
    expect(a!.signal.aborted).toBe(false);
    expect(c!.signal.aborted).toBe(false);
    expect(claims.renewals.get("a")).toBeGreaterThanOrEqual(2);
    expect(claims.renewals.get("b")).toBe(1);
    a!.stop();
    c!.stop();
    expect(await a!.ended).toBe("stopped");
    expect(keeper.size).toBe(0);
    const renewed = claims.renewals.get("a");
    await sleep(1000);
    expect(claims.renewals.get("a")).toBe(renewed);
  });

  it("aborts the work of every claim when the node shuts down, and of any claim held after", async () => {
    const claims = new MemoryWorkClaims();
    const shutdown = new AbortController();
    const keeper = new LeaseKeeper({
      claims,
      owner: "n1",
      leaseSeconds: 10,
      signal: shutdown.signal,
    });
    const held = await holdAll(keeper, claims, ["x", "y"]);
    const reason = new Error("SIGTERM");
    shutdown.abort(reason);
    for (const heartbeat of held) {
      expect(await heartbeat.ended).toBe("shutdown");
      expect(heartbeat.signal.reason).toBe(reason);
    }
    const late = keeper.hold({ dedupeKey: "z", attempt: 1 });
    expect(await late.ended).toBe("shutdown");
    expect(keeper.size).toBe(0);
  });
});
