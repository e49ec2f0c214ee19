import {
  DEFAULT_DEPLOYMENT,
  SPAN_ATTRIBUTES,
  SPAN_NAMES,
  loadDeployment,
  createCycliumNode,
  type CycliumNode,
  silentLogger,
  Telemetry,
} from "@cyclium/core/console";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { seedTestUsers, testContext, type TTestUsers } from "../../auth/testing/auth-test-kit";
import { setConsoleRuntime } from "../../runtime/console-runtime";
import { createConsoleNode } from "../../runtime/create-console-node";
import { createCaller } from "../root-router";

// Issue 17's acceptance through the console's own path: an operator's actors.fire (createCaller,
// real context) on the console node, a full-mode worker node beside it that knows the fire only
// through the database, the SDK the apps register exporting to memory.
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
let database: TestDatabase;
let users: TTestUsers;
const nodes: CycliumNode[] = [];

beforeAll(async () => {
  provider.register();
  database = await createTestDatabase();
  users = await seedTestUsers(database.pool);
  vi.stubEnv("CYCLIUM_DEMO_REVIEW_CRON", "0 0 1 1 *");
  const deployment = await loadDeployment(DEFAULT_DEPLOYMENT);
  const common = {
    db: database.pool,
    databaseUrl: database.url,
    env: null,
    stack: null,
    workClaims: "postgres" as const,
    leaseSeconds: 120,
    telemetry: new Telemetry(),
    logger: silentLogger,
    jitterMs: 0,
    telemetryRollups: false,
  };
  const consoleNode = await createConsoleNode({ ...common, nodeIdentity: "web-1", deployment });
  nodes.push(consoleNode.node);
  setConsoleRuntime(consoleNode.runtime);
  const worker = await createCycliumNode({
    ...common,
    nodeIdentity: "worker-1",
    kind: "worker",
    mode: "full",
    poller: { enabled: true, intervalMs: 60_000, sourceStack: null },
    actors: deployment.actors,
    strategies: deployment.strategies,
  });
  await worker.start();
  nodes.push(worker);
}, 30_000);

afterAll(async () => {
  setConsoleRuntime(null);
  vi.unstubAllEnvs();
  await Promise.all(nodes.map((node) => node.stop({ graceMs: 0 })));
  await database?.drop();
  await provider.shutdown();
  trace.disable();
});

describe("tracing a console fire", () => {
  it("the fire, its trigger request, the worker's claim, the episode and its steps are one trace", async () => {
    const operator = createCaller(testContext(database.pool, users.operator));
    const fired = await operator.actors.fire({
      actorId: "resource_monitor",
      expectationId: "check_resource_limits",
      idempotencyKey: "trace-intent-1",
      input: { resourceId: "db-primary" },
    });
    await vi.waitFor(
      () => {
        const run = exporter.getFinishedSpans().find((s) => s.name === SPAN_NAMES.episode);
        expect(run?.attributes[SPAN_ATTRIBUTES.episodeId]).toBe(fired.episodeId);
      },
      { timeout: 10_000 },
    );
    const fire = exporter.getFinishedSpans().find((s) => s.name === SPAN_NAMES.fire);
    const traceId = fire?.spanContext().traceId;
    const spans = exporter
      .getFinishedSpans()
      .filter((s) => s.spanContext().traceId === traceId)
      .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
    const names = spans.map((s) => s.name);
    expect(names.slice(0, 4)).toEqual([
      SPAN_NAMES.fire,
      SPAN_NAMES.triggerRequest,
      SPAN_NAMES.claim,
      SPAN_NAMES.episode,
    ]);
    expect(names.length).toBeGreaterThan(4);
    expect(names.slice(4).every((name) => name === SPAN_NAMES.step)).toBe(true);
    expect(fire?.attributes[SPAN_ATTRIBUTES.node]).toBe("web-1");
    expect(spans[2]?.attributes).toMatchObject({
      [SPAN_ATTRIBUTES.node]: "worker-1",
      [SPAN_ATTRIBUTES.attempt]: 1,
    });
  }, 20_000);
});
