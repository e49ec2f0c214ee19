import type { NodeExtension } from "./node-extension";
import { cancelEpisode } from "../episodes/commands/index";
import { WorkflowEngine } from "../workflows/workflow-engine";
import type { WorkflowRegistry } from "../workflows/workflow-registry";

export interface WorkflowExtension extends NodeExtension {
  /** The node's engine once started; triggers start workflows through it. */
  readonly engine: WorkflowEngine | undefined;
}

/**
 * The workflow engine on a node: steps are fired through the node's ActorHost (so they run here,
 * or are deferred on a trigger-only node), and a worker's engine advances on the cluster bus.
 */
export function workflowExtension(registry: WorkflowRegistry): WorkflowExtension {
  let engine: WorkflowEngine | undefined;
  return {
    name: "workflows",
    get engine() {
      return engine;
    },
    start(node) {
      const started = new WorkflowEngine({
        db: node.db,
        bus: node.bus,
        telemetry: node.telemetry,
        registry,
        startStep: (request) => node.host.fire(request),
        // Through the database, so a sibling running on another node is stopped too.
        cancelEpisode: (episodeId) =>
          cancelEpisode(
            {
              episodeId,
              errorClass: "workflow_aborted",
              reason: "Cancelled because its workflow instance was aborted or cancelled.",
              bus: node.bus,
              logger: node.logger,
            },
            node.db,
          ),
        scope: { stack: node.stack, env: node.env },
        logger: node.logger,
      });
      // The console (a `web` node) starts instances but never applies a step's end: a transition
      // is committed before its next step is started, so a console killed in between (a laptop
      // closed, a deploy) would leave the instance waiting on a step that was never fired. The
      // workers, which run the steps, apply every transition.
      if (node.kind !== "web") started.start();
      engine = started;
      return { stop: () => started.stop() };
    },
  };
}
