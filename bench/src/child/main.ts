/**
 * Entry point of a bench worker process (spawned by the parent with an IPC channel). Its single
 * argument is a JSON WorkerRole: consume items of one system, or run the calibration loop.
 */
import { runCalibration } from "./calibrate";
import {
  isParentMessage,
  preciseNow,
  type ChildMessage,
  type ParentMessage,
  type WorkerRole,
} from "./protocol";
import { countQueries } from "./query-counter";
import { prepareConsumer } from "../systems/consumers";

const queryCount = countQueries();

function send(message: ChildMessage): Promise<void> {
  return new Promise((resolve, reject) => {
    if (process.send === undefined) {
      reject(new Error("bench worker started without an IPC channel"));
      return;
    }
    process.send(message, (err: Error | null) => (err ? reject(err) : resolve()));
  });
}

/** Resolves with the next message of `type` from the parent. */
function next(type: ParentMessage["type"]): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (message: unknown): void => {
      if (isParentMessage(message) && message.type === type) {
        process.off("message", onMessage);
        resolve();
      }
    };
    process.on("message", onMessage);
  });
}

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

async function consume(role: Extract<WorkerRole, { kind: "consume" }>): Promise<void> {
  const executed: number[] = [];
  const consumer = await prepareConsumer(role.system, {
    url: role.url,
    concurrency: role.concurrency,
    label: role.label,
    onExecute: role.reportEach
      ? (item) => {
          const at = preciseNow();
          executed.push(item);
          void send({ type: "started", item, at });
        }
      : (item) => void executed.push(item),
  });
  await send({ type: "ready" });
  await next("go");
  const cpu = process.cpuUsage();
  const queriesAtGo = queryCount();
  await consumer.start();
  // Counts only: one IPC message per item would cost more CPU than our no-op handler.
  let reported = 0;
  const progress = setInterval(() => {
    if (executed.length !== reported) {
      reported = executed.length;
      void send({ type: "progress", executed: reported });
    }
  }, 50);
  await next("stop");
  clearInterval(progress);
  await consumer.stop();
  await send({
    type: "stopped",
    executed,
    usage: { queries: queryCount() - queriesAtGo, cpuMs: cpuMsSince(cpu) },
  });
}

async function main(): Promise<void> {
  const role = JSON.parse(process.argv[2] ?? "null") as WorkerRole;
  if (role.kind === "consume") {
    await consume(role);
  } else if (role.kind === "burst") {
    // A parent gone (crash, deadline, Ctrl-C) leaves no burst worker behind.
    const orphaned = (): never => process.exit(1);
    process.on("disconnect", orphaned);
    const { runBurstWorker } = await import("../burst/burst-worker");
    await runBurstWorker(role, { send, next, queryCount });
    process.off("disconnect", orphaned);
  } else if (role.kind === "scale") {
    const { runScaleWorker } = await import("../scale/scale-worker");
    await runScaleWorker(role, { send });
    // The worker's HTTP server and pool are not closed by a node stop: end the process here.
    process.exit(0);
  } else {
    await runCalibration(role, {
      ready: () => send({ type: "ready" }),
      go: () => next("go"),
      done: (updates, seconds, start) =>
        send({
          type: "calibrated",
          updates,
          seconds,
          usage: { queries: queryCount() - start.queries, cpuMs: cpuMsSince(start.cpu) },
        }),
      queryCount,
    });
  }
  process.disconnect();
}

main().catch(async (error: unknown) => {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  await send({ type: "failed", message }).catch(() => undefined);
  process.exit(1);
});
