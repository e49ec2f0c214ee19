import { describe, expect, it } from "vitest";
import { EventAdmission } from "./event-admission";

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("EventAdmission", () => {
  it("runs at most `limit` at once, in arrival order, and every one of them", async () => {
    const admission = new EventAdmission<number>(3);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const finished: number[] = [];
    const release: (() => void)[] = [];
    for (let i = 0; i < 2_000; i += 1) {
      admission.submit(async (n) => {
        started.push(n);
        running += 1;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => release.push(resolve));
        running -= 1;
        finished.push(n);
      }, i);
    }
    expect(admission.waiting).toBe(1_997);
    while (finished.length < 2_000) {
      release.shift()?.();
      await tick();
    }
    expect(peak).toBe(3);
    expect(started).toEqual(Array.from({ length: 2_000 }, (_, i) => i));
    expect(admission.waiting).toBe(0);
    expect(admission.running).toBe(0);
  });

  it("frees the slot and reports when the work throws", async () => {
    const errors: unknown[] = [];
    const admission = new EventAdmission(1, (error) => errors.push(error));
    const ran: string[] = [];
    admission.submit(() => Promise.reject(new Error("boom")), undefined);
    admission.submit(() => {
      ran.push("next");
      return Promise.resolve();
    }, undefined);
    for (let i = 0; i < 5; i += 1) await tick();
    expect(ran).toEqual(["next"]);
    expect(errors).toHaveLength(1);
  });
});
