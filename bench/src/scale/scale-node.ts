import { WorkerProcess } from "../child/worker-process";
import type { ChildMessage, ScaleProgress } from "../child/protocol";
import { sleep } from "../scenarios/context";

/** A scale worker process as the parent sees it: its latest counts and its sweep results. */
export class ScaleNode {
  readonly process: WorkerProcess;
  latest: Omit<ScaleProgress, "type"> = { executed: 0, hung: 0, recovered: 0, notifications: 0 };
  readonly swept: Extract<ChildMessage, { type: "swept" }>[] = [];

  constructor(url: string, label: string, victim: boolean) {
    this.process = new WorkerProcess({ kind: "scale", url, label, victim });
    this.process.onMessage((message) => {
      if (message.type === "scaleProgress") this.latest = message;
      if (message.type === "swept") this.swept.push(message);
    });
  }
}

export function total(nodes: readonly ScaleNode[], pick: (p: ScaleNode["latest"]) => number) {
  return nodes.reduce((sum, node) => sum + pick(node.latest), 0);
}

const STEP_TIMEOUT_MS = 120_000;

/** Polls `done` every 10 ms; a step of the run that takes 2 minutes is stuck. */
export async function until(what: string, done: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = performance.now() + STEP_TIMEOUT_MS;
  while (!(await done())) {
    if (performance.now() > deadline) throw new Error(`scale: timed out waiting for ${what}`);
    await sleep(10);
  }
}
