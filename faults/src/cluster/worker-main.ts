// A worker of the suite's cluster: a full-mode Cyclium node (actors, the trigger request poller,
// recovery) running the recorded test actors, driven over stdin by the orchestrator and killed,
// paused or cut off by it with real signals and a real proxy.
import { recoveryExtension } from "@cyclium/core/worker";
import { emit, runCommandLoop } from "./command-loop";
import { readNodeEnv } from "./env";
import { PROBE_TOPIC } from "./fault-actors";
import { fireBatch, fireWithRetry } from "./fire-operations";
import { startNode } from "./start-node";

const env = readNodeEnv();
const started = await startNode(env, {
  kind: "worker",
  extensions: [
    recoveryExtension({
      delayMs: env.CYCLIUM_RECOVERY_DELAY_MS,
      intervalMs: env.CYCLIUM_RECOVERY_INTERVAL_MS,
      staleAfterMs: env.CYCLIUM_STALE_AFTER_MS,
    }),
  ],
});
const { node, history } = started;

node.bus.subscribe(PROBE_TOPIC, (event) => {
  const id = (event.payload as { id?: unknown }).id;
  if (typeof id !== "string") return;
  history.write({ op: "probe", id });
  emit({ event: "probe", id });
});

runCommandLoop(async (command) => {
  switch (command.cmd) {
    case "fire":
      // An operator's fire on this node: one try, so that racing nodes each make exactly one.
      return fireWithRetry({ host: node.host, history, ...command, retryForMs: 1 });
    case "fire-batch":
      // A burst fired here (scenarios 8-10): full mode, so every episode it creates waits in this
      // node's queue behind the actor's one or two slots.
      return fireBatch(node.host, history, command);
    case "stop":
      await started.stop();
      setImmediate(() => process.exit(0));
      return null;
    case "publish-batch":
    case "probe":
      throw new Error(`${command.cmd} is the writer's`);
  }
});

emit({ event: "ready", identity: env.CYCLIUM_NODE_IDENTITY, pid: process.pid });
