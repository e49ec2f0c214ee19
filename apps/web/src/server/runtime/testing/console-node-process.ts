// A console node as its own process, for tests that kill it (console-kill.integration.test.ts):
// the real createConsoleNode (trigger_only) on the deployment CYCLIUM_DEPLOYMENT names; starts
// the workflow START_WORKFLOW through the console's engine and prints its instance id.
import { loadDeployment, Telemetry } from "@cyclium/core/console";
import pg from "pg";
import { pino } from "pino";
import { createConsoleNode } from "../create-console-node";

const databaseUrl = process.env.DATABASE_URL ?? "";
const pool = new pg.Pool({ connectionString: databaseUrl, max: 5 });
const { runtime } = await createConsoleNode({
  db: pool,
  databaseUrl,
  nodeIdentity: process.env.CYCLIUM_NODE_IDENTITY ?? "console-process",
  env: null,
  stack: null,
  workClaims: "postgres",
  leaseSeconds: 120,
  deployment: await loadDeployment(process.env.CYCLIUM_DEPLOYMENT),
  telemetry: new Telemetry(),
  logger: pino({ level: "warn" }),
  jitterMs: 0,
  telemetryRollups: false,
});
// Typed as the trigger fan-out's starter; the engine behind it also takes a start of its own.
const startWorkflow = runtime.startWorkflow as (options: {
  workflow: string;
}) => Promise<{ instanceId: string }>;
const started = await startWorkflow({ workflow: process.env.START_WORKFLOW ?? "" });
console.log(JSON.stringify({ started: started.instanceId }));
