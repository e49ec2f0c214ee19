import {
  retentionPolicyFromEnv,
  describeRetentionPolicy,
  listPrunerRuns,
} from "@cyclium/core/console";
import { getRetentionEnv } from "../../../env";
import { audited } from "../../audit";
import { runPrunerNow } from "../../commands/run-pruner-now";
import { createTrpcRouter, operatorProcedure, viewerProcedure } from "../init";
import { toWire } from "../to-wire";
import { ZPrunerOverviewInput, ZRunPrunerInput } from "./pruner.schema";

// Retention on the Recovery page (SPEC section 14): the policy this console reads from the same
// CYCLIUM_RETENTION_* variables as the workers, the policy each recorded run applied, the runs.
export const prunerRouter = createTrpcRouter({
  overview: viewerProcedure.input(ZPrunerOverviewInput).query(async ({ ctx, input }) => {
    const policy = describeRetentionPolicy(retentionPolicyFromEnv(getRetentionEnv()));
    const runs = await listPrunerRuns({ limit: input.limit }, ctx.db);
    return toWire({ policy, runs });
  }),

  run: operatorProcedure.input(ZRunPrunerInput).mutation(({ ctx }) => {
    const env = getRetentionEnv();
    return audited(ctx, { action: "pruner.run", target: "cluster" }, async (tx) =>
      toWire(
        await runPrunerNow({
          pool: ctx.db,
          db: tx,
          nodeIdentity: ctx.node.identity,
          policy: retentionPolicyFromEnv(env),
          batchSize: env.CYCLIUM_PRUNER_BATCH_SIZE,
          requestedBy: ctx.principal.name,
        }),
      ),
    );
  }),
});
