import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { MicroBatcher } from "./micro-batcher";

function recorder(delayMs = 0) {
  const batches: number[][] = [];
  const batcher = new MicroBatcher<number, string>({
    run: async (items) => {
      batches.push(items);
      if (delayMs > 0) await sleep(delayMs);
      return items.map((item) => `r${item}`);
    },
    maxBatch: 3,
  });
  return { batches, batcher };
}

describe("MicroBatcher", () => {
  it("sends what arrives in one turn as one batch, each caller getting its own result", async () => {
    const { batches, batcher } = recorder();
    const results = await Promise.all([batcher.add(1), batcher.add(2)]);
    expect(results).toEqual(["r1", "r2"]);
    expect(batches).toEqual([[1, 2]]);
  });

  it("holds what arrives during a batch for the next one, and splits at maxBatch", async () => {
    const { batches, batcher } = recorder(20);
    const first = batcher.add(1);
    await sleep(5);
    const later = [2, 3, 4, 5].map((n) => batcher.add(n));
    expect(await Promise.all([first, ...later])).toEqual(["r1", "r2", "r3", "r4", "r5"]);
    expect(batches).toEqual([[1], [2, 3, 4], [5]]);
  });

  it("with maxInFlight 2, sends a second batch while the first is in flight, never a third", async () => {
    let running = 0;
    let most = 0;
    const batches: number[][] = [];
    const batcher = new MicroBatcher<number, number>({
      run: async (items) => {
        batches.push(items);
        running += 1;
        most = Math.max(most, running);
        await sleep(20);
        running -= 1;
        return items;
      },
      maxInFlight: 2,
    });
    const first = batcher.add(1);
    await sleep(5);
    const second = batcher.add(2);
    await sleep(5);
    const third = [3, 4].map((n) => batcher.add(n));
    expect(await Promise.all([first, second, ...third])).toEqual([1, 2, 3, 4]);
    // 2 went out beside 1 at once; 3 and 4 waited for a free place and went together.
    expect(batches).toEqual([[1], [2], [3, 4]]);
    expect(most).toBe(2);
  });

  it("rejects every caller of a failed batch and goes on with the next", async () => {
    let fail = true;
    const batcher = new MicroBatcher<number, number>({
      run: (items) => {
        if (fail) {
          fail = false;
          return Promise.reject(new Error("db down"));
        }
        return Promise.resolve(items);
      },
    });
    const failed = [batcher.add(1), batcher.add(2)].map((p) => p.catch((e: Error) => e.message));
    expect(await Promise.all(failed)).toEqual(["db down", "db down"]);
    expect(await batcher.add(3)).toBe(3);
  });
});
