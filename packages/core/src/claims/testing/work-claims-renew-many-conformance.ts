import { expect, it } from "vitest";
import type { MakeAdapter } from "./conformance-types";

const LONG_LEASE_SECONDS = 60;

export interface RenewManyConformanceContext {
  makeAdapter: MakeAdapter;
  /** A key of this run's own. */
  key: (label: string) => string;
  /** Waits (or moves the adapter's clock) past `shortLease`. */
  lapse: () => Promise<void>;
  shortLease: number;
}

/**
 * `renewMany` (optional; the lease keeper's one round trip per tick): for every given claim,
 * what `renew` would have answered. Adapters without it pass trivially (the keeper renews each).
 */
export function describeRenewManyConformance(context: RenewManyConformanceContext): void {
  const { makeAdapter, key, lapse, shortLease } = context;

  it("renewMany extends exactly the claims the owner holds at their attempt", async () => {
    const claims = await makeAdapter();
    if (claims.renewMany === undefined) return;
    const [held, heldToo, others, stale, released, unknown] = [
      "rm-held",
      "rm-held-too",
      "rm-others",
      "rm-stale",
      "rm-released",
      "rm-unknown",
    ].map(key) as [string, string, string, string, string, string];
    const owner = "keeper";
    const short = shortLease;
    await claims.acquire({ dedupeKey: held, owner, leaseSeconds: short });
    await claims.acquire({ dedupeKey: heldToo, owner, leaseSeconds: short });
    await claims.acquire({ dedupeKey: others, owner: "other", leaseSeconds: LONG_LEASE_SECONDS });
    await claims.acquire({ dedupeKey: stale, owner, leaseSeconds: LONG_LEASE_SECONDS });
    await claims.complete({ dedupeKey: stale, owner, attempt: 1 });
    await claims.acquire({ dedupeKey: stale, owner, leaseSeconds: LONG_LEASE_SECONDS });
    await claims.acquire({ dedupeKey: released, owner, leaseSeconds: LONG_LEASE_SECONDS });
    await claims.complete({ dedupeKey: released, owner, attempt: 1 });

    const answer = await claims.renewMany({
      owner,
      leaseSeconds: LONG_LEASE_SECONDS,
      claims: [
        { dedupeKey: held, attempt: 1 },
        { dedupeKey: heldToo },
        { dedupeKey: others, attempt: 1 },
        // Attempt 1 of this key was completed; the owner holds attempt 2 now.
        { dedupeKey: stale, attempt: 1 },
        { dedupeKey: released, attempt: 1 },
        { dedupeKey: unknown, attempt: 1 },
      ],
    });
    const renewed = [...answer.renewed].sort((a, b) => a.dedupeKey.localeCompare(b.dedupeKey));
    expect(renewed).toEqual(
      [
        { dedupeKey: held, attempt: 1 },
        { dedupeKey: heldToo, attempt: 1 },
      ].sort((a, b) => a.dedupeKey.localeCompare(b.dedupeKey)),
    );

    // The renewed leases outlive the short ones they were acquired with: no steal after it.
    await lapse();
    for (const dedupeKey of [held, heldToo]) {
      expect(
        await claims.acquire({ dedupeKey, owner: "thief", leaseSeconds: LONG_LEASE_SECONDS }),
      ).toEqual({ ok: false, error: "busy" });
      expect(await claims.holds({ dedupeKey, owner, attempt: 1 })).toBe(true);
    }
    // Nothing the owner does not hold changed hands or state.
    expect(await claims.holds({ dedupeKey: others, owner: "other", attempt: 1 })).toBe(true);
    expect(await claims.holds({ dedupeKey: stale, owner, attempt: 2 })).toBe(true);
    expect(await claims.holds({ dedupeKey: released, owner, attempt: 1 })).toBe(false);
  });

  it("renewMany with no claims answers none", async () => {
    const claims = await makeAdapter();
    if (claims.renewMany === undefined) return;
    expect(
      await claims.renewMany({ owner: "keeper", leaseSeconds: LONG_LEASE_SECONDS, claims: [] }),
    ).toEqual({ renewed: [] });
  });
}
