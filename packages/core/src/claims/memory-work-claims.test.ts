import { describe, expect, it } from "vitest";
import { MemoryWorkClaims } from "./memory-work-claims";

describe("MemoryWorkClaims", () => {
  it("follows the same take-over rules as the database", async () => {
    let now = 0;
    const claims = new MemoryWorkClaims({ now: () => now });
    const acquire = (owner: string) => claims.acquire({ dedupeKey: "k", owner, leaseSeconds: 1 });

    expect(await acquire("a")).toEqual({ ok: true, attempt: 1, stolen: false });
    expect(await acquire("b")).toEqual({ ok: false, error: "busy" });

    now = 1500;
    expect(await acquire("b")).toMatchObject({ ok: true, attempt: 2, stolen: true });
    expect(await claims.renew({ dedupeKey: "k", owner: "a", leaseSeconds: 1 })).toEqual({
      ok: false,
      error: "not_owner",
    });
    expect(await claims.complete({ dedupeKey: "k", owner: "b", attempt: 1 })).toMatchObject({
      ok: false,
    });
    expect(await claims.complete({ dedupeKey: "k", owner: "b", attempt: 2 })).toEqual({ ok: true });

    expect(await acquire("c")).toMatchObject({ ok: true, attempt: 3, stolen: false });
    expect(claims.get("k")).toMatchObject({ owner: "c", steals: 1, state: "claimed" });

    now = 5000;
    expect(await claims.reclaimExpired({ limit: 10 })).toEqual({ expiredKeys: ["k"] });
    expect(await acquire("d")).toMatchObject({ ok: true, attempt: 4, stolen: false });
  });
});
