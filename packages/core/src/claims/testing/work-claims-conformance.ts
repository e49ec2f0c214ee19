import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { isCycliumError } from "../../errors/index";
import { MAX_DEDUPE_KEY_LENGTH, type AcquireClaimResult, type ClaimState } from "../work-claims";
import type { InspectedClaim, MakeAdapter } from "./conformance-types";
import { describeBatchConformance } from "./work-claims-batch-conformance";
import { describeRenewManyConformance } from "./work-claims-renew-many-conformance";

export interface WorkClaimsConformanceOptions {
  /**
   * The short lease the time-based cases use (default 1 s, the shortest an etcd lease can be).
   * Those cases wait this long plus `lapseMarginMs` for it to run out, unless `advanceClock` is
   * given; three such waits make the suite's wall time.
   */
  shortLeaseSeconds?: number;
  /** Added to every real wait for a lease to lapse (default 150 ms). */
  lapseMarginMs?: number;
  /**
   * Moves the adapter's lease clock forward by `ms` instead of waiting for real time to pass,
   * for adapters that accept a clock (MemoryWorkClaims `now`).
   */
  advanceClock?: (ms: number) => void | Promise<void>;
  /**
   * Reads a claim's stored state and attempt, when the adapter's store can be inspected: the
   * cases then also check the `expired` / `done` / `failed` states directly, not only through
   * the callbacks' answers.
   */
  inspect?: (dedupeKey: string) => Promise<InspectedClaim | undefined>;
  /** Contenders in the concurrent-acquire case (default 20). */
  contenders?: number;
}

const LONG_LEASE_SECONDS = 60;

/**
 * The WorkClaims contract (SPEC section 4) as a vitest suite: run it against any adapter with
 *
 *     describeWorkClaimsConformance("redis", () => new RedisWorkClaims(client));
 *
 * Every case uses keys of its own (random per run), so the adapter's store may be shared with
 * other cases and other tests; `reclaimExpired` is only asserted on those keys and on its limit.
 */
export function describeWorkClaimsConformance(
  name: string,
  makeAdapter: MakeAdapter,
  options: WorkClaimsConformanceOptions = {},
): void {
  const shortLease = options.shortLeaseSeconds ?? 1;
  const run = randomUUID().slice(0, 8);
  const key = (label: string): string => `conformance:${run}:${label}`;
  /** Past the short lease: on the adapter's clock when it accepts one, else in real time. */
  const lapse = async (): Promise<void> => {
    const ms = shortLease * 1000 + (options.lapseMarginMs ?? 150);
    if (options.advanceClock) await options.advanceClock(ms);
    else await sleep(ms);
  };
  const stateOf = async (dedupeKey: string): Promise<ClaimState | undefined> =>
    options.inspect ? (await options.inspect(dedupeKey))?.state : undefined;

  describe(`WorkClaims conformance: ${name}`, () => {
    describeBatchConformance({ makeAdapter, key, lapse, shortLease, inspect: options.inspect });
    describeRenewManyConformance({ makeAdapter, key, lapse, shortLease });

    it("lets exactly one of many concurrent acquirers win; the rest are busy", async () => {
      const claims = await makeAdapter();
      const k = key("race");
      const results = await Promise.all(
        Array.from({ length: options.contenders ?? 20 }, (_, i) =>
          claims.acquire({ dedupeKey: k, owner: `node-${i}`, leaseSeconds: LONG_LEASE_SECONDS }),
        ),
      );
      const winners = results.filter((result) => result.ok);
      expect(winners).toHaveLength(1);
      expect(winners[0]).toMatchObject({ ok: true, attempt: 1, stolen: false });
      expect(results.filter((r) => !r.ok && r.error === "busy")).toHaveLength(results.length - 1);
      // The owner itself is busy too while its lease runs: a second task must not share it.
      const winner = results.indexOf(winners[0] as AcquireClaimResult);
      const again = await claims.acquire({
        dedupeKey: k,
        owner: `node-${winner}`,
        leaseSeconds: LONG_LEASE_SECONDS,
      });
      expect(again).toEqual({ ok: false, error: "busy" });
    });

    it("takes over a done or failed claim as a fresh acquire (attempt + 1), not a steal", async () => {
      const claims = await makeAdapter();
      const k = key("released");
      const lease = LONG_LEASE_SECONDS;
      expect(await claims.acquire({ dedupeKey: k, owner: "a", leaseSeconds: lease })).toMatchObject(
        { ok: true, attempt: 1, stolen: false },
      );
      expect(await claims.complete({ dedupeKey: k, owner: "a", attempt: 1 })).toEqual({ ok: true });
      if (options.inspect) expect(await stateOf(k)).toBe("done");
      expect(await claims.acquire({ dedupeKey: k, owner: "b", leaseSeconds: lease })).toMatchObject(
        { ok: true, attempt: 2, stolen: false },
      );
      const detail = "boom";
      expect(
        await claims.fail({ dedupeKey: k, owner: "b", attempt: 2, errorDetail: detail }),
      ).toEqual({ ok: true });
      if (options.inspect) expect(await stateOf(k)).toBe("failed");
      expect(await claims.acquire({ dedupeKey: k, owner: "a", leaseSeconds: lease })).toMatchObject(
        { ok: true, attempt: 3, stolen: false },
      );
    });

    it("refuses renew, complete, fail and holds for a non-owner; the owner keeps the claim", async () => {
      const claims = await makeAdapter();
      const k = key("owner");
      await claims.acquire({ dedupeKey: k, owner: "a", leaseSeconds: LONG_LEASE_SECONDS });
      const notOwner = { ok: false, error: "not_owner" };
      expect(await claims.renew({ dedupeKey: k, owner: "b", leaseSeconds: 5 })).toEqual(notOwner);
      expect(await claims.complete({ dedupeKey: k, owner: "b" })).toEqual(notOwner);
      expect(await claims.fail({ dedupeKey: k, owner: "b", errorDetail: "x" })).toEqual(notOwner);
      expect(await claims.holds({ dedupeKey: k, owner: "b", attempt: 1 })).toBe(false);
      expect(await claims.holds({ dedupeKey: k, owner: "a", attempt: 1 })).toBe(true);
      expect(await claims.renew({ dedupeKey: k, owner: "a", leaseSeconds: 5 })).toEqual({
        ok: true,
      });
      expect(await claims.complete({ dedupeKey: k, owner: "a", attempt: 1 })).toEqual({ ok: true });
      // Released: the former owner can neither release it twice nor still hold it.
      expect(await claims.complete({ dedupeKey: k, owner: "a", attempt: 1 })).toEqual(notOwner);
      expect(await claims.holds({ dedupeKey: k, owner: "a", attempt: 1 })).toBe(false);
      expect(await claims.holds({ dedupeKey: key("never-claimed"), owner: "a", attempt: 1 })).toBe(
        false,
      );
    });

    it("fences on the attempt: the same owner at an older attempt is refused", async () => {
      const claims = await makeAdapter();
      const k = key("attempt");
      const lease = LONG_LEASE_SECONDS;
      await claims.acquire({ dedupeKey: k, owner: "a", leaseSeconds: lease });
      await claims.complete({ dedupeKey: k, owner: "a", attempt: 1 });
      // The same node re-acquires (a newer task): the old task's attempt 1 is stale.
      expect(await claims.acquire({ dedupeKey: k, owner: "a", leaseSeconds: lease })).toMatchObject(
        { ok: true, attempt: 2 },
      );
      const notOwner = { ok: false, error: "not_owner" };
      const old = { dedupeKey: k, owner: "a", attempt: 1 };
      expect(await claims.renew({ ...old, leaseSeconds: 5 })).toEqual(notOwner);
      expect(await claims.holds(old)).toBe(false);
      expect(await claims.complete(old)).toEqual(notOwner);
      expect(await claims.fail({ ...old, errorDetail: "stale" })).toEqual(notOwner);
      expect(await claims.holds({ ...old, attempt: 2 })).toBe(true);
      expect(await claims.renew({ ...old, attempt: 2, leaseSeconds: 5 })).toEqual({ ok: true });
    });

    it("lets another owner steal a lapsed claim (attempt + 1, stolen); the zombie is fenced", async () => {
      const claims = await makeAdapter();
      const k = key("steal");
      const live = key("steal-live");
      await claims.acquire({ dedupeKey: k, owner: "zombie", leaseSeconds: shortLease });
      await claims.acquire({ dedupeKey: live, owner: "a", leaseSeconds: LONG_LEASE_SECONDS });
      await lapse();
      expect(
        await claims.acquire({ dedupeKey: live, owner: "b", leaseSeconds: LONG_LEASE_SECONDS }),
      ).toEqual({ ok: false, error: "busy" });
      expect(
        await claims.acquire({ dedupeKey: k, owner: "thief", leaseSeconds: LONG_LEASE_SECONDS }),
      ).toMatchObject({ ok: true, attempt: 2, stolen: true });
      const zombie = { dedupeKey: k, owner: "zombie", attempt: 1 };
      const notOwner = { ok: false, error: "not_owner" };
      expect(await claims.holds(zombie)).toBe(false);
      expect(await claims.renew({ ...zombie, leaseSeconds: 5 })).toEqual(notOwner);
      expect(await claims.renew({ dedupeKey: k, owner: "zombie", leaseSeconds: 5 })).toEqual(
        notOwner,
      );
      expect(await claims.complete(zombie)).toEqual(notOwner);
      expect(await claims.fail({ ...zombie, errorDetail: "late" })).toEqual(notOwner);
      expect(await claims.holds({ dedupeKey: k, owner: "thief", attempt: 2 })).toBe(true);
      if (options.inspect)
        expect(await options.inspect(k)).toMatchObject({ state: "claimed", attempt: 2 });
    });

    it("reclaimExpired marks lapsed claims expired, at most `limit` per call, live ones untouched", async () => {
      const claims = await makeAdapter();
      const lapsed = [key("lapsed-1"), key("lapsed-2"), key("lapsed-3")];
      const live = key("reclaim-live");
      const done = key("reclaim-done");
      for (const k of lapsed) {
        await claims.acquire({ dedupeKey: k, owner: "gone", leaseSeconds: shortLease });
      }
      await claims.acquire({ dedupeKey: done, owner: "a", leaseSeconds: shortLease });
      await claims.complete({ dedupeKey: done, owner: "a", attempt: 1 });
      await claims.acquire({ dedupeKey: live, owner: "a", leaseSeconds: LONG_LEASE_SECONDS });
      await lapse();

      const first = await claims.reclaimExpired({ limit: 2 });
      expect(first.expiredKeys).toHaveLength(2);
      const expired = [...first.expiredKeys];
      // Other lapsed claims in a shared store may come first; the loop is bounded either way.
      for (let call = 0; call < 1_000; call++) {
        const next = await claims.reclaimExpired({ limit: 50 });
        expect(next.expiredKeys.length).toBeLessThanOrEqual(50);
        if (next.expiredKeys.length === 0) break;
        expired.push(...next.expiredKeys);
      }
      for (const k of lapsed) expect(expired.filter((e) => e === k)).toHaveLength(1);
      expect(expired).not.toContain(live);
      expect(expired).not.toContain(done);
      if (options.inspect) {
        for (const k of lapsed) expect(await stateOf(k)).toBe("expired");
        expect(await stateOf(done)).toBe("done");
      }

      const [gone] = lapsed as [string];
      const former = { dedupeKey: gone, owner: "gone", attempt: 1 };
      expect(await claims.holds(former)).toBe(false);
      expect(await claims.renew({ ...former, leaseSeconds: 5 })).toEqual({
        ok: false,
        error: "not_owner",
      });
      expect(await claims.holds({ dedupeKey: live, owner: "a", attempt: 1 })).toBe(true);
      // An expired claim is taken over like a released one: attempt + 1, not a steal.
      expect(
        await claims.acquire({ dedupeKey: gone, owner: "b", leaseSeconds: LONG_LEASE_SECONDS }),
      ).toMatchObject({ ok: true, attempt: 2, stolen: false });
    });

    it("rejects input the contract cannot hold with a CycliumError invalid_input", async () => {
      const claims = await makeAdapter();
      const isInvalid = (error: unknown): boolean => isCycliumError(error, "invalid_input");
      const tooLong = "k".repeat(MAX_DEDUPE_KEY_LENGTH + 1);
      await expect(
        claims.acquire({ dedupeKey: tooLong, owner: "a", leaseSeconds: 10 }),
      ).rejects.toSatisfy(isInvalid);
      await expect(
        claims.acquire({ dedupeKey: "", owner: "a", leaseSeconds: 10 }),
      ).rejects.toSatisfy(isInvalid);
      await expect(
        claims.acquire({ dedupeKey: key("no-owner"), owner: "", leaseSeconds: 10 }),
      ).rejects.toSatisfy(isInvalid);
      await expect(
        claims.acquire({ dedupeKey: key("no-lease"), owner: "a", leaseSeconds: 0 }),
      ).rejects.toSatisfy(isInvalid);
      await expect(
        claims.renew({ dedupeKey: tooLong, owner: "a", leaseSeconds: 10 }),
      ).rejects.toSatisfy(isInvalid);
      await expect(claims.reclaimExpired({ limit: 0 })).rejects.toSatisfy(isInvalid);
      // The longest key the contract allows is accepted.
      const longest = `${key("max")}:`.padEnd(MAX_DEDUPE_KEY_LENGTH, "x");
      expect(
        await claims.acquire({ dedupeKey: longest, owner: "a", leaseSeconds: 10 }),
      ).toMatchObject({ ok: true, attempt: 1 });
    });
  });
}
