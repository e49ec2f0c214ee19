import { MemoryBus } from "@cyclium/core/console";
import { describe, expect, it } from "vitest";
import type { TLiveHint } from "./live-hint";
import { LiveHub } from "./live-hub";

const all = () => true;

/** Takes `count` hints from a stream, or fails after `timeoutMs`. */
async function take(stream: AsyncGenerator<TLiveHint>, count: number, timeoutMs = 1_000) {
  const hints: TLiveHint[] = [];
  const deadline = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error("timed out")), timeoutMs),
  );
  while (hints.length < count) {
    const next = await Promise.race([stream.next(), deadline]);
    if (next.done === true) break;
    hints.push(next.value);
  }
  return hints;
}

function open(hub: LiveHub, accepts: (hint: TLiveHint) => boolean = all, signal?: AbortSignal) {
  const opened = hub.open(accepts, signal);
  if (opened.kind !== "stream") throw new Error("refused");
  return opened.hints;
}

describe("LiveHub", () => {
  it("fans one bus subscription out to every stream, as hints with ids", async () => {
    const bus = new MemoryBus();
    const hub = new LiveHub();
    hub.attach(bus);
    const a = open(hub);
    const b = open(hub);
    expect(await take(a, 1)).toEqual([{ topic: "live.ready", pushing: true }]);
    expect(await take(b, 1)).toEqual([{ topic: "live.ready", pushing: true }]);
    await bus.publish("episode.completed", {
      episodeId: "e1",
      actorId: "alpha",
      status: "completed",
      sourceEnv: null,
    });
    const expected = { topic: "episode.completed", episodeId: "e1", actorId: "alpha", env: null };
    expect(await take(a, 1)).toEqual([expected]);
    expect(await take(b, 1)).toEqual([expected]);
  });

  it("folds a slow stream's overflow into one resync hint", async () => {
    const hub = new LiveHub({ maxQueued: 3 });
    const stream = open(hub);
    await take(stream, 1);
    for (let i = 0; i < 10; i += 1) hub.publish({ topic: "episode.completed", episodeId: `e${i}` });
    expect(await take(stream, 1)).toEqual([{ topic: "live.resync", pushing: false }]);
    hub.publish({ topic: "finding.raised" });
    expect(await take(stream, 1)).toEqual([{ topic: "finding.raised" }]);
  });

  it("removes a stream when its signal aborts, even while it waits for a hint", async () => {
    const hub = new LiveHub();
    const controller = new AbortController();
    const stream = open(hub, all, controller.signal);
    await take(stream, 1);
    const waiting = stream.next();
    expect(hub.subscriberCount).toBe(1);
    controller.abort();
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(hub.subscriberCount).toBe(0);
  });

  it("refuses streams past its bound and skips hints a stream does not accept", async () => {
    const hub = new LiveHub({ maxSubscribers: 1 });
    const stream = open(hub, (hint) => hint.env === undefined || hint.env === "prod");
    expect(hub.open(all, undefined)).toEqual({ kind: "busy" });
    await take(stream, 1);
    hub.publish({ topic: "episode.failed", env: "staging" });
    hub.publish({ topic: "episode.failed", env: "prod" });
    expect(await take(stream, 1)).toEqual([{ topic: "episode.failed", env: "prod" }]);
    await stream.return();
    expect(hub.subscriberCount).toBe(0);
  });

  it("tells open streams to resync when the bus goes or comes back", async () => {
    const hub = new LiveHub();
    const stream = open(hub);
    await take(stream, 1);
    hub.attach(new MemoryBus());
    expect(await take(stream, 1)).toEqual([{ topic: "live.resync", pushing: true }]);
    hub.attach(null);
    expect(await take(stream, 1)).toEqual([{ topic: "live.resync", pushing: false }]);
  });
});
