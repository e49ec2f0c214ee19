import { getWorkflowGraph } from "../../queries/workflows/get-workflow-graph";
import { listWorkflowInstances } from "../../queries/workflows/list-workflow-instances";
import { findConsoleRuntime } from "../../runtime/console-runtime";
import { createTrpcRouter, viewerProcedure } from "../init";
import { resolveEnv } from "./shared.schema";
import { ZWorkflowInstanceInput, ZWorkflowListInput } from "./workflows.schema";

export const workflowsRouter = createTrpcRouter({
  list: viewerProcedure.input(ZWorkflowListInput).query(({ ctx, input }) =>
    listWorkflowInstances({
      db: ctx.db,
      filters: {
        env: resolveEnv(ctx.node.env, input.env),
        workflowName: input.workflowName,
        status: input.status,
      },
      cursor: input.cursor,
      direction: input.direction,
      limit: input.limit,
    }),
  ),
  instance: viewerProcedure.input(ZWorkflowInstanceInput).query(({ ctx, input }) =>
    getWorkflowGraph({
      db: ctx.db,
      id: input.id,
      workflows: findConsoleRuntime()?.workflows ?? null,
    }),
  ),
});
