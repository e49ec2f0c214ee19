/**
 * A `--scale` node: the real worker (core's runWorker, as apps/worker runs it) with the scale
 * deployment, in a bench child process. It counts the LISTEN notifications its pg clients
 * receive, reports progress every 100 ms, and on `sweep` runs one recovery sweep.
 */
import { runWorker } from "@cyclium/core";
import { recoveryExtension } from "@cyclium/core/worker";
import pg from "pg";
import type { ChildMessage, ParentMessage, ScaleProgress, ScaleRole } from "../child/protocol";
import { scaleDeployment } from "./scale-deployment";

/** The slots of the bench's other systems (--concurrency). */
const SLOTS = 24;
/** Timers of the worker's own recovery, pushed past any run: the bench sweeps on demand. */
const NEVER_MS = 24 * 3_600_000;

/** Counts `notification` events of every pg client in this process (one per LISTEN delivery). */
function countNotifications(): () => number {
  let count = 0;
  const prototype = pg.Client.prototype;
  const original: unknown = Reflect.get(prototype, "emit");
  if (typeof original !== "function") throw new Error("pg.Client has no emit method");
  Reflect.set(prototype, "emit", function (this: pg.Client, event: string, ...args: unknown[]) {
    if (event === "notification") count += 1;
    return Reflect.apply(original, this, [event, ...args]) as boolean;
  });
  return () => count;
}

export async function runScaleWorker(
  role: ScaleRole,
  io: { send(message: ChildMessage): Promise<void> },
): Promise<void> {
  const notifications = countNotifications();
  const executed: number[] = [];
  const recovered: number[] = [];
  let hung = 0;
  const deployment = scaleDeployment({
    victim: role.victim,
    slots: SLOTS,
    hooks: {
      executed: (item) => void executed.push(item),
      hung: () => void (hung += 1),
      recovered: (item) => void recovered.push(item),
    },
  });
  // Sweeps only when the parent asks, so that all nodes sweep at once and idle shows no sweep.
  const recovery = recoveryExtension({ delayMs: NEVER_MS, intervalMs: NEVER_MS });
  const worker = await runWorker({
    deployment,
    environment: false,
    databaseUrl: role.url,
    migrate: false,
    nodeIdentity: role.label,
    port: 0,
    // The sweep's steals of the victim's lapsed claims are warnings, 1,000 of them.
    logLevel: "error",
    jitterMs: 0,
    recovery: false,
    extensions: [recovery],
    // The victim's claims must lapse soon after it is killed, for the sweep to take them.
    ...(role.victim ? { leaseSeconds: 2 } : {}),
    version: "bench-scale",
  });
  const progress = (): ScaleProgress => ({
    type: "scaleProgress",
    executed: executed.length,
    hung,
    recovered: recovered.length,
    notifications: notifications(),
  });
  const timer = setInterval(() => void io.send(progress()), 100);
  await io.send({ type: "ready" });
  await new Promise<void>((resolve) => {
    process.on("message", (message: ParentMessage) => {
      if (message.type === "sweep") {
        const sweep = recovery.recovery?.sweep({ staleAfterMs: 1_000 });
        void sweep?.then((result) =>
          io.send({
            type: "swept",
            found: result.found,
            claimed: result.claimed,
            restarted: result.restarted,
            ms: result.durationMs,
          }),
        );
      } else if (message.type === "stop") {
        resolve();
      }
    });
  });
  clearInterval(timer);
  await worker.node.stop({ graceMs: 5_000 });
  await io.send({
    ...progress(),
    type: "scaleStopped",
    executedItems: executed,
    recoveredItems: recovered,
  });
}
