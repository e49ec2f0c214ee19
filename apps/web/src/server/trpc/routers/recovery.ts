import { getRecoveryOverview } from "@cyclium/core/console";
import { audited } from "../../audit";
import { runRecoverySweep } from "../../commands/run-recovery-sweep";
import { requireConsoleRuntime } from "../../runtime/console-runtime";
import { createTrpcRouter, operatorProcedure, viewerProcedure } from "../init";
import { toWire } from "../to-wire";
import { ZRecoveryOverviewInput, ZRunSweepInput } from "./recovery.schema";
import { resolveEnv } from "./shared.schema";

export const recoveryRouter = createTrpcRouter({
  overview: viewerProcedure
    .input(ZRecoveryOverviewInput)
    .query(async ({ ctx, input }) =>
      toWire(await getRecoveryOverview({ db: ctx.db, env: resolveEnv(ctx.node.env, input.env) })),
    ),

  sweep: operatorProcedure.input(ZRunSweepInput).mutation(({ ctx, input }) => {
    const env = resolveEnv(ctx.node.env, input.env);
    return audited(ctx, { action: "recovery.sweep", target: env ?? "default" }, (tx) =>
      runRecoverySweep({
        runtime: requireConsoleRuntime(),
        db: tx,
        env,
        stack: ctx.node.stack,
        staleAfterMs: input.staleAfterMs,
        requestedBy: ctx.principal.name,
      }),
    );
  }),
});
