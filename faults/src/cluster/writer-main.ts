// The cluster's trigger-only writer (what the console is in production): fires create episodes
// and trigger requests that the workers pick up; it also publishes the bus events of scenario 6
// and the probes of scenario 4. Every client operation goes to its history as invoke/ok/fail/info.
import { emit, runCommandLoop } from "./command-loop";
import type { TPublishBatch } from "./commands";
import { readNodeEnv } from "./env";
import { PROBE_TOPIC } from "./fault-actors";
import { fireBatch, fireWithRetry } from "./fire-operations";
import { startNode, type StartedNode } from "./start-node";

const env = readNodeEnv();
const started = await startNode(env, { kind: "web", extensions: [] });
const { node, history } = started;

/** Publishes `count` events at once (up to `concurrency` in flight), each recorded. */
async function publishBatch(batch: TPublishBatch, target: StartedNode): Promise<number> {
  let nextIndex = 0;
  let published = 0;
  const lane = async (): Promise<void> => {
    for (;;) {
      const index = nextIndex;
      if (index >= batch.count) return;
      nextIndex += 1;
      const key = `${batch.prefix}-${index}`;
      history.write({ op: "publish", type: "invoke", key });
      try {
        const event = await target.node.bus.publish(batch.topic, {
          steps: 2,
          stepMs: 10,
          ...batch.input,
          key,
        });
        history.write({ op: "publish", type: "ok", key, eventId: event.id });
        published += 1;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        history.write({ op: "publish", type: "info", key, error: message });
      }
    }
  };
  await Promise.all(Array.from({ length: batch.concurrency }, lane));
  return published;
}

runCommandLoop(async (command) => {
  switch (command.cmd) {
    case "fire-batch":
      return fireBatch(node.host, history, command);
    case "fire":
      return fireWithRetry({ host: node.host, history, ...command, retryForMs: 1 });
    case "publish-batch":
      return publishBatch(command, started);
    case "probe":
      await node.bus.publish(PROBE_TOPIC, { id: command.probeId });
      return null;
    case "stop":
      await started.stop();
      setImmediate(() => process.exit(0));
      return null;
  }
});

emit({ event: "ready", identity: env.CYCLIUM_NODE_IDENTITY, pid: process.pid });
