import { setTimeout as sleep } from "node:timers/promises";
import { trace } from "@opentelemetry/api";
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { defineActor, done, next, type Strategy } from "../actors/index";
import { createCycliumNode, type CycliumNode } from "../nodes/index";
import { recoveryExtension } from "../nodes/index";
import { stepsStrategy } from "../runtime/testing/index";
import { silentLogger, Telemetry } from "../telemetry/index";
import { SPAN_ATTRIBUTES, SPAN_NAMES, TRACER_NAME } from "./index";

// The real SDK as the apps register it (NodeTracerProvider: async-hooks context, W3C
// propagator), exporting to memory. A console node (trigger_only, as apps/web runs it) fires; a
// worker node (full, polling trigger requests) runs the episode in the same process but only
// through the database, so the trace crosses nodes through the stored context alone.
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

let db: TestDatabase;
const nodes: CycliumNode[] = [];

/** Blocks its step on the first attempt (until the node stops it); the resumed run finishes. */
const stallsUntilRecovered: Strategy<unknown, number> = {
  init: () => 0,
  step: async (state, ctx) => {
    if (!ctx.episode.recovered) await sleep(60_000, undefined, { signal: ctx.signal });
    return state >= 1 ? done({ steps: state + 1 }) : next(state + 1);
  },
};

const actors = [
  defineActor({
    identifier: "traced",
    expectations: [{ id: "run", strategy: "steps", trigger: { manual: true } }],
  }),
  defineActor({
    identifier: "recovered",
    expectations: [
      { id: "run", strategy: "stalls", trigger: { manual: true }, recoveryPolicy: "restart" },
    ],
  }),
];

async function startNode(identity: string, mode: "full" | "trigger_only") {
  const recovery = recoveryExtension({ delayMs: 600_000, intervalMs: 600_000 });
  const node = await createCycliumNode({
    db: db.pool,
    databaseUrl: db.url,
    kind: mode === "full" ? "worker" : "web",
    mode,
    nodeIdentity: identity,
    stack: null,
    env: null,
    workClaims: "postgres",
    leaseSeconds: 30,
    poller: { enabled: mode === "full", intervalMs: 60_000, sourceStack: null },
    actors,
    strategies: { steps: stepsStrategy, stalls: stallsUntilRecovered },
    extensions: mode === "full" ? [recovery] : [],
    jitterMs: 0,
    telemetryRollups: false,
    logger: silentLogger,
    telemetry: new Telemetry(),
  });
  nodes.push(node);
  await node.start();
  return { node, recovery };
}

async function statusOf(episodeId: string): Promise<string | undefined> {
  const { rows } = await db.pool.query<{ status: string }>(
    "SELECT status FROM cyclium_episodes WHERE id = $1",
    [episodeId],
  );
  return rows[0]?.status;
}

function spansOf(traceId: string): ReadableSpan[] {
  return exporter
    .getFinishedSpans()
    .filter((span) => span.spanContext().traceId === traceId)
    .sort((a, b) => hrMs(a.startTime) - hrMs(b.startTime));
}

function hrMs([s, ns]: [number, number]): number {
  return s * 1e3 + ns / 1e6;
}

function episodeSpanOf(episodeId: string): ReadableSpan[] {
  return exporter
    .getFinishedSpans()
    .filter(
      (span) =>
        span.name === SPAN_NAMES.episode &&
        span.attributes[SPAN_ATTRIBUTES.episodeId] === episodeId,
    );
}

beforeAll(async () => {
  provider.register();
  db = await createTestDatabase({ poolSize: 20 });
}, 30_000);

afterAll(async () => {
  await Promise.all(nodes.splice(0).map((node) => node.stop({ graceMs: 1_000 })));
  await db?.drop();
  await provider.shutdown();
  trace.disable();
});

describe("OpenTelemetry traces", () => {
  it("a console fire and the worker running it are one trace: fire, request, claim, episode, steps", async () => {
    const { node: consoleNode } = await startNode("console-1", "trigger_only");
    await startNode("worker-1", "full");
    const fired = await consoleNode.host.fire({
      actorId: "traced",
      expectationId: "run",
      triggerType: "manual",
      idempotencyKey: "trace-1",
      input: { steps: 2 },
    });
    if (fired.kind !== "created") throw new Error(`expected a created episode, got ${fired.kind}`);
    await vi.waitFor(async () => expect(await statusOf(fired.episodeId)).toBe("completed"), {
      timeout: 10_000,
    });
    await vi.waitFor(() => expect(episodeSpanOf(fired.episodeId)).toHaveLength(1));

    const fire = exporter.getFinishedSpans().find((span) => span.name === SPAN_NAMES.fire);
    if (fire === undefined) throw new Error("no fire span");
    expect(fire.instrumentationScope.name).toBe(TRACER_NAME);
    const spans = spansOf(fire.spanContext().traceId);
    expect(spans.map((span) => span.name)).toEqual([
      SPAN_NAMES.fire,
      SPAN_NAMES.triggerRequest,
      SPAN_NAMES.claim,
      SPAN_NAMES.episode,
      SPAN_NAMES.step,
      SPAN_NAMES.step,
    ]);
    const [, request, claim, episode, step1, step2] = spans;
    const idOf = (span: ReadableSpan | undefined) => span?.spanContext().spanId;
    // The worker's spans hang off the request's span, whose context travelled in the row.
    expect(request?.parentSpanContext?.spanId).toBe(idOf(fire));
    expect(claim?.parentSpanContext?.spanId).toBe(idOf(request));
    expect(episode?.parentSpanContext?.spanId).toBe(idOf(request));
    expect(step1?.parentSpanContext?.spanId).toBe(idOf(episode));
    expect(step2?.parentSpanContext?.spanId).toBe(idOf(episode));
    expect(fire.attributes).toMatchObject({
      [SPAN_ATTRIBUTES.actor]: "traced",
      [SPAN_ATTRIBUTES.expectation]: "run",
      [SPAN_ATTRIBUTES.node]: "console-1",
      [SPAN_ATTRIBUTES.episodeId]: fired.episodeId,
    });
    expect(claim?.attributes).toMatchObject({
      [SPAN_ATTRIBUTES.attempt]: 1,
      [SPAN_ATTRIBUTES.node]: "worker-1",
    });
    expect(episode?.attributes).toMatchObject({
      [SPAN_ATTRIBUTES.episodeId]: fired.episodeId,
      [SPAN_ATTRIBUTES.attempt]: 1,
      "cyclium.episode.outcome": "completed",
    });
    expect([step1, step2].map((s) => s?.attributes[SPAN_ATTRIBUTES.step])).toEqual([1, 2]);
  }, 20_000);

  it("a handed-back episode's run links to the attempt that was stopped mid-step", async () => {
    const consoleNode = nodes[0];
    if (consoleNode === undefined) throw new Error("the first test starts the console node");
    const first = await startNode("worker-doomed", "full");
    // Only the doomed worker polls for the fire below: the first worker stops taking work.
    await nodes[1]?.stop({ graceMs: 1_000 });
    const fired = await consoleNode.host.fire({
      actorId: "recovered",
      expectationId: "run",
      triggerType: "manual",
      idempotencyKey: "trace-2",
    });
    if (fired.kind !== "created") throw new Error(`expected a created episode, got ${fired.kind}`);
    await vi.waitFor(async () => expect(await statusOf(fired.episodeId)).toBe("running"), {
      timeout: 10_000,
    });
    // Stopping aborts the stalled step and hands the episode back (restart policy): pending
    // again at the next attempt, for whichever full node polls next.
    await first.node.stop({ graceMs: 0 });
    const [killed] = episodeSpanOf(fired.episodeId);
    expect(killed?.attributes["cyclium.episode.outcome"]).toBe("handed_back");

    const rescuer = await startNode("worker-rescuer", "full");
    // Nothing is left for recovery: the rescuer's poller resumes it.
    const swept = await rescuer.recovery.recovery?.sweep({ staleAfterMs: 0 });
    expect(swept).toMatchObject({ restarted: 0 });
    await vi.waitFor(async () => expect(await statusOf(fired.episodeId)).toBe("completed"), {
      timeout: 10_000,
    });
    await vi.waitFor(() => expect(episodeSpanOf(fired.episodeId)).toHaveLength(2));
    const recovered = episodeSpanOf(fired.episodeId).find((span) => span !== killed);
    expect(recovered?.attributes[SPAN_ATTRIBUTES.recovered]).toBe(true);
    // The claim's attempt: the hand-back released it, the resumed run took it over.
    expect(recovered?.attributes[SPAN_ATTRIBUTES.attempt]).toBeGreaterThan(
      Number(killed?.attributes[SPAN_ATTRIBUTES.attempt]),
    );
    expect(recovered?.links.map((link) => link.context.spanId)).toEqual([
      killed?.spanContext().spanId,
    ]);
    // Still the fire's trace; the sweep has a span of its own.
    expect(recovered?.spanContext().traceId).toBe(killed?.spanContext().traceId);
    const sweep = exporter.getFinishedSpans().find((s) => s.name === SPAN_NAMES.recoverySweep);
    expect(sweep?.attributes[SPAN_ATTRIBUTES.restarted]).toBe(0);
  }, 25_000);
});
