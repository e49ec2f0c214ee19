import {
  resumeWorkflowInstance,
  retryWorkflowStep,
  getWorkflowGraph,
  listWorkflowInstances,
} from "@cyclium/core/console";
import { audited } from "../../audit";
import { findConsoleRuntime, requireConsoleRuntime } from "../../runtime/console-runtime";
import { createTrpcRouter, operatorProcedure, viewerProcedure } from "../init";
import { toWire } from "../to-wire";
import { resolveEnv } from "./shared.schema";
import {
  ZWorkflowInstanceInput,
  ZWorkflowListInput,
  ZWorkflowResumeInput,
  ZWorkflowRetryStepInput,
} from "./workflows.schema";

export const workflowsRouter = createTrpcRouter({
  list: viewerProcedure.input(ZWorkflowListInput).query(async ({ ctx, input }) =>
    toWire(
      await listWorkflowInstances({
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
  ),
  instance: viewerProcedure.input(ZWorkflowInstanceInput).query(async ({ ctx, input }) =>
    toWire(
      await getWorkflowGraph({
        db: ctx.db,
        id: input.id,
        workflows: findConsoleRuntime()?.workflows ?? null,
      }),
    ),
  ),

  // Operator actions on a `blocked` instance (SPEC 12, `pause` policy). The engine applies them on
  // its own connection with a compare-and-set (a double click applies once); the audit row
  // commits right after.
  resume: operatorProcedure.input(ZWorkflowResumeInput).mutation(({ ctx, input }) =>
    audited(ctx, { action: "workflows.resume", target: input.instanceId }, () =>
      resumeWorkflowInstance({
        instanceId: input.instanceId,
        engine: requireConsoleRuntime().workflowOperator,
      }),
    ),
  ),

  retryStep: operatorProcedure.input(ZWorkflowRetryStepInput).mutation(({ ctx, input }) =>
    audited(
      ctx,
      {
        action: "workflows.retryStep",
        target: input.instanceId,
        detail: { step: input.step },
      },
      () =>
        retryWorkflowStep({
          instanceId: input.instanceId,
          step: input.step,
          engine: requireConsoleRuntime().workflowOperator,
        }),
    ),
  ),
});
