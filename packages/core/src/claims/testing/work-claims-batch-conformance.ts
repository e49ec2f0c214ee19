import { expect, it } from "vitest";
import { isCycliumError } from "../../errors/index";
import { acquireClaimsInBulk, failClaimsInBulk } from "../claims-in-bulk";
import type { AcquireClaimResult, WorkClaims } from "../work-claims";
import type { InspectedClaim, MakeAdapter } from "./conformance-types";

const LONG_LEASE_SECONDS = 60;

export interface BatchConformanceContext {
  makeAdapter: MakeAdapter;
  /** A key of this run's own. */
  key: (label: string) => string;
  /** Waits (or moves the adapter's clock) past `shortLease`. */
  lapse: () => Promise<void>;
  shortLease: number;
  inspect?: ((dedupeKey: string) => Promise<InspectedClaim | undefined>) | undefined;
}

/** The kinds of claim an acquirer can meet, each prepared the same way for both twins. */
const SITUATIONS = ["fresh", "done", "failed", "lapsed", "live-other", "live-self"] as const;
type Situation = (typeof SITUATIONS)[number];

const ACQUIRER = "acquirer";

async function prepare(
  claims: WorkClaims,
  dedupeKey: string,
  situation: Situation,
  shortLease: number,
): Promise<void> {
  const long = LONG_LEASE_SECONDS;
  switch (situation) {
    case "fresh":
      return;
    case "done":
      await claims.acquire({ dedupeKey, owner: "a", leaseSeconds: long });
      await claims.complete({ dedupeKey, owner: "a", attempt: 1 });
      return;
    case "failed":
      await claims.acquire({ dedupeKey, owner: "a", leaseSeconds: long });
      await claims.fail({ dedupeKey, owner: "a", attempt: 1, errorDetail: "boom" });
      return;
    case "lapsed":
      await claims.acquire({ dedupeKey, owner: "zombie", leaseSeconds: shortLease });
      return;
    case "live-other":
      await claims.acquire({ dedupeKey, owner: "other", leaseSeconds: long });
      return;
    case "live-self":
      await claims.acquire({ dedupeKey, owner: ACQUIRER, leaseSeconds: long });
      return;
  }
}

/** The contract's part of an answer (an adapter may add fields, such as Postgres's fence). */
function contractOf(result: AcquireClaimResult | undefined): unknown {
  if (!result) return undefined;
  return result.ok
    ? { ok: true, attempt: result.attempt, stolen: result.stolen }
    : { ok: false, error: result.error };
}

const isInvalid = (error: unknown): boolean =>
  isCycliumError(error) && error.code === "invalid_input";

/**
 * `acquireMany` / `failMany` against the adapter's own `acquire` / `fail`: each key of a batch
 * must get the answer, and leave the state, attempt and steal count, that the single call gives
 * a twin key prepared the same way. Run through `acquireClaimsInBulk` / `failClaimsInBulk`, so an
 * adapter without the batch callbacks is checked through the one-by-one fallback.
 */
export function describeBatchConformance(context: BatchConformanceContext): void {
  const { makeAdapter, key, lapse, shortLease, inspect } = context;

  it("acquireMany answers each key as acquire does: fresh, taken over, stolen, busy", async () => {
    const claims = await makeAdapter();
    const single = SITUATIONS.map((situation) => key(`bulk-twin-single-${situation}`));
    const bulk = SITUATIONS.map((situation) => key(`bulk-twin-bulk-${situation}`));
    for (const [index, situation] of SITUATIONS.entries()) {
      await prepare(claims, single[index] as string, situation, shortLease);
      await prepare(claims, bulk[index] as string, situation, shortLease);
    }
    await lapse();

    const one: AcquireClaimResult[] = [];
    for (const dedupeKey of single) {
      one.push(
        await claims.acquire({ dedupeKey, owner: ACQUIRER, leaseSeconds: LONG_LEASE_SECONDS }),
      );
    }
    const many = await acquireClaimsInBulk(claims, {
      dedupeKeys: bulk,
      owner: ACQUIRER,
      leaseSeconds: LONG_LEASE_SECONDS,
    });
    expect(many.map(contractOf)).toEqual(one.map(contractOf));
    const busy = { ok: false, error: "busy" };
    expect(many.map(contractOf)).toEqual([
      { ok: true, attempt: 1, stolen: false },
      { ok: true, attempt: 2, stolen: false },
      { ok: true, attempt: 2, stolen: false },
      { ok: true, attempt: 2, stolen: true },
      busy,
      busy,
    ]);
    if (inspect) {
      for (const [index] of SITUATIONS.entries()) {
        expect(await inspect(bulk[index] as string)).toEqual(
          await inspect(single[index] as string),
        );
      }
    }
    // The zombie of the stolen key is fenced out exactly as after a single steal.
    const stolen = bulk[SITUATIONS.indexOf("lapsed")] as string;
    expect(await claims.holds({ dedupeKey: stolen, owner: "zombie", attempt: 1 })).toBe(false);
    expect(await claims.holds({ dedupeKey: stolen, owner: ACQUIRER, attempt: 2 })).toBe(true);
    expect(await claims.renew({ dedupeKey: stolen, owner: "zombie", leaseSeconds: 5 })).toEqual({
      ok: false,
      error: "not_owner",
    });
  });

  it("failMany answers each claim as fail does, fenced on owner and attempt", async () => {
    const claims = await makeAdapter();
    const long = LONG_LEASE_SECONDS;
    const cases = [
      { label: "owned", owner: ACQUIRER, attempt: 1 as number | undefined },
      { label: "owned-no-attempt", owner: ACQUIRER, attempt: undefined },
      { label: "stale-attempt", owner: ACQUIRER, attempt: 7 },
      { label: "someone-elses", owner: "other", attempt: 1 },
      { label: "never-claimed", owner: null, attempt: 1 },
    ];
    const twins = { single: [] as string[], bulk: [] as string[] };
    for (const side of ["single", "bulk"] as const) {
      for (const entry of cases) {
        const dedupeKey = key(`fail-twin-${side}-${entry.label}`);
        twins[side].push(dedupeKey);
        if (entry.owner)
          await claims.acquire({ dedupeKey, owner: entry.owner, leaseSeconds: long });
      }
    }
    const one = [];
    for (const [index, entry] of cases.entries()) {
      const dedupeKey = twins.single[index] as string;
      one.push(
        await claims.fail({ dedupeKey, owner: ACQUIRER, attempt: entry.attempt, errorDetail: "x" }),
      );
    }
    const many = await failClaimsInBulk(claims, {
      owner: ACQUIRER,
      claims: cases.map((entry, index) => ({
        dedupeKey: twins.bulk[index] as string,
        attempt: entry.attempt,
        errorDetail: "x",
      })),
    });
    expect(many).toEqual(one);
    const notOwner = { ok: false, error: "not_owner" };
    expect(many).toEqual([{ ok: true }, { ok: true }, notOwner, notOwner, notOwner]);
    if (inspect) {
      for (const [index] of cases.entries()) {
        expect(await inspect(twins.bulk[index] as string)).toEqual(
          await inspect(twins.single[index] as string),
        );
      }
      expect((await inspect(twins.bulk[0] as string))?.state).toBe("failed");
    }
    // Failed is released: the next acquire is a fresh take-over at attempt + 1.
    expect(
      await claims.acquire({ dedupeKey: twins.bulk[0] as string, owner: "b", leaseSeconds: long }),
    ).toMatchObject({ ok: true, attempt: 2, stolen: false });
  });

  it("lets exactly one of many concurrent batch and single acquirers win each key", async () => {
    const claims = await makeAdapter();
    const keys = Array.from({ length: 12 }, (_, i) => key(`bulk-race-${i}`));
    // Every contender names the same keys in an order of its own.
    const orders = Array.from({ length: 6 }, (_, i) => {
      const rotated = [...keys.slice(i * 2), ...keys.slice(0, i * 2)];
      return i % 2 === 0 ? rotated : rotated.reverse();
    });
    const results = await Promise.all([
      ...orders.map(async (dedupeKeys, i) => {
        const owner = `bulk-${i}`;
        const answers = await acquireClaimsInBulk(claims, {
          dedupeKeys,
          owner,
          leaseSeconds: LONG_LEASE_SECONDS,
        });
        return answers.map((answer, index) => ({ dedupeKey: dedupeKeys[index] as string, answer }));
      }),
      ...keys.map(async (dedupeKey) => {
        const owner = "single";
        const answer = await claims.acquire({ dedupeKey, owner, leaseSeconds: LONG_LEASE_SECONDS });
        return [{ dedupeKey, answer }];
      }),
    ]);
    const wins = results.flat().filter((entry) => entry.answer.ok);
    expect(wins.map((entry) => entry.dedupeKey).sort()).toEqual([...keys].sort());
    for (const win of wins) expect(win.answer).toMatchObject({ ok: true, attempt: 1 });
  });

  it("rejects a repeated key or bad input in a batch with invalid_input", async () => {
    const claims = await makeAdapter();
    const k = key("bulk-repeated");
    await expect(
      acquireClaimsInBulk(claims, { dedupeKeys: [k, k], owner: "a", leaseSeconds: 10 }),
    ).rejects.toSatisfy(isInvalid);
    await expect(
      acquireClaimsInBulk(claims, {
        dedupeKeys: [key("bulk-ok"), ""],
        owner: "a",
        leaseSeconds: 10,
      }),
    ).rejects.toSatisfy(isInvalid);
    await expect(
      failClaimsInBulk(claims, {
        owner: "a",
        claims: [
          { dedupeKey: k, errorDetail: "x" },
          { dedupeKey: k, errorDetail: "y" },
        ],
      }),
    ).rejects.toSatisfy(isInvalid);
    expect(
      await acquireClaimsInBulk(claims, { dedupeKeys: [], owner: "a", leaseSeconds: 10 }),
    ).toEqual([]);
  });
}
