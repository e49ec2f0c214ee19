// A full node for the multi-process trigger test: the ActorHost with one actor, the workflow
// engine and the trigger scheduler as extensions, and a cron trigger that fires every second (or
// an interval schedule of one second) and fans out to two workflows. Reports "ready" on stdout;
// stops on SIGTERM.
import pg from "pg";
import { defineActor } from "../../actors/index";
import { createCycliumNode } from "../../nodes/index";
import { noopStrategy } from "../../runtime/testing/index";
import { silentLogger, Telemetry } from "../../telemetry/index";
import { workflowExtension } from "../../nodes/index";
import { defineWorkflow, WorkflowRegistry } from "../../workflows/index";
import { defineTrigger } from "../trigger-definition";
import { triggerExtension } from "../trigger-extension";
import { TriggerRegistry } from "../trigger-registry";

const step = { name: "run", actor: "reporter", expectation: "report" };
const workflows = new WorkflowRegistry().register(
  defineWorkflow({ name: "tick_flow", steps: [step] }),
  defineWorkflow({ name: "audit_flow", steps: [step], triggers: ["every_second"] }),
);
// TRIGGER_KIND=interval: the same beat as an interval schedule instead of a cron rule.
const triggers = new TriggerRegistry().register(
  process.env.TRIGGER_KIND === "interval"
    ? defineTrigger({ name: "every_second", on: "tick_flow", intervalMs: 1_000 })
    : defineTrigger({ name: "every_second", on: "tick_flow", cron: "* * * * * *" }),
);
const engine = workflowExtension(workflows);

const databaseUrl = process.env.DATABASE_URL ?? "";
const pool = new pg.Pool({ connectionString: databaseUrl, max: 8 });
const node = await createCycliumNode({
  db: pool,
  databaseUrl,
  kind: "worker",
  mode: "full",
  nodeIdentity: process.env.NODE_ID ?? `trigger-node-${process.pid}`,
  stack: null,
  env: null,
  workClaims: "postgres",
  leaseSeconds: 30,
  poller: { enabled: false, intervalMs: 1_000, sourceStack: null },
  actors: [
    defineActor({
      identifier: "reporter",
      expectations: [{ id: "report", strategy: noopStrategy, trigger: { manual: true } }],
    }),
  ],
  dynamicActors: false,
  jitterMs: 0,
  telemetryRollups: false,
  logger: silentLogger,
  telemetry: new Telemetry(),
  extensions: [engine, triggerExtension({ triggers, workflows, engine, tickMs: 50 })],
});
await node.start();
process.stdout.write(`${JSON.stringify({ event: "ready", pid: process.pid })}\n`);

process.on("SIGTERM", () => {
  void node
    .stop({ graceMs: 5_000 })
    .then(() => pool.end())
    .then(() => process.exit(0));
});
