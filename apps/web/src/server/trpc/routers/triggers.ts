import {
  fireTrigger,
  inspectTrigger,
  listTriggers,
  pauseTrigger,
  resumeTrigger,
  tenantIdOf,
} from "@cyclium/core/console";
import { audited } from "../../audit";
import { findConsoleRuntime, requireConsoleRuntime } from "../../runtime/console-runtime";
import { createTrpcRouter, operatorProcedure, viewerProcedure } from "../init";
import { resolveEnv } from "./shared.schema";
import {
  ZTriggerActionInput,
  ZTriggerFireInput,
  ZTriggerInspectInput,
  ZTriggerListInput,
} from "./triggers.schema";

/** The registries let core name each trigger's subscribers; absent until the node started. */
function registries() {
  const runtime = findConsoleRuntime();
  return runtime ? { triggers: runtime.triggers, workflows: runtime.workflows } : {};
}

/** Triggers are addressed per env as REST addresses tenants (SPEC section 9). */
const tenantOf = (consoleEnv: string | null, env: string | null | undefined) =>
  tenantIdOf(resolveEnv(consoleEnv, env));

export const triggersRouter = createTrpcRouter({
  list: viewerProcedure.input(ZTriggerListInput).query(({ ctx, input }) =>
    listTriggers({
      db: ctx.db,
      tenantId: tenantOf(ctx.node.env, input.env),
      limit: 1000,
      order: "name",
      ...registries(),
    }),
  ),

  inspect: viewerProcedure.input(ZTriggerInspectInput).query(({ ctx, input }) =>
    inspectTrigger({
      db: ctx.db,
      tenantId: tenantOf(ctx.node.env, input.env),
      name: input.name,
      firings: input.firings,
      ...registries(),
    }),
  ),

  pause: operatorProcedure.input(ZTriggerActionInput).mutation(({ ctx, input }) =>
    audited(ctx, { action: "triggers.pause", target: input.name }, (tx) =>
      pauseTrigger({
        db: tx,
        tenantId: tenantOf(ctx.node.env, input.env),
        name: input.name,
        by: ctx.principal.name,
      }),
    ),
  ),

  resume: operatorProcedure
    .input(ZTriggerActionInput)
    .mutation(({ ctx, input }) =>
      audited(ctx, { action: "triggers.resume", target: input.name }, (tx) =>
        resumeTrigger({ db: tx, tenantId: tenantOf(ctx.node.env, input.env), name: input.name }),
      ),
    ),

  fire: operatorProcedure.input(ZTriggerFireInput).mutation(({ ctx, input }) =>
    // The firing is recorded on the pool, outside the audit transaction: it and its per-workflow
    // outcome stay whatever the primary's outcome (the audit row says what happened). Like every
    // manual fire it is never deduplicated and works on a paused trigger (core's fireTrigger).
    audited(ctx, { action: "triggers.fire", target: input.name }, () => {
      const runtime = requireConsoleRuntime();
      return fireTrigger({
        db: ctx.db,
        tenantId: tenantOf(ctx.node.env, input.env),
        name: input.name,
        context: input.context,
        firedBy: ctx.principal.name,
        startWorkflow: runtime.startWorkflow,
        triggers: runtime.triggers,
        workflows: runtime.workflows,
      });
    }),
  ),
});
