import { describe, expect, it } from "vitest";
import { EventAdmission } from "./event-admission";

describe("EventAdmission", () => {
  it("runs at most `limit` at once, in arrival order, and every one of them", async () => {
    const admission = new EventAdmission(3);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const release: (() => void)[] = [];
    const all = Array.from({ length: 10 }, (_, i) =>
      admission.run(async () => {
        started.push(i);
        running += 1;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => release.push(resolve));
        running -= 1;
        return i;
      }),
    );
    for (let round = 0; round < 10; round += 1) {
      await new Promise((resolve) => setImmediate(resolve));
      release.shift()?.();
    }
    while (release.length > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      release.shift()?.();
    }
    expect(await Promise.all(all)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(peak).toBe(3);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(admission.waiting).toBe(0);
  });

  it("frees the slot when the work throws", async () => {
    const admission = new EventAdmission(1);
    await expect(admission.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await admission.run(() => Promise.resolve("next"))).toBe("next");
  });
});
