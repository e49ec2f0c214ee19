import { listKnownEnvs } from "@cyclium/core/console";
import { createTrpcRouter, viewerProcedure } from "../init";

export const envsRouter = createTrpcRouter({
  /** The env selector's choices; `null` is the unset env, shown as `default`. */
  list: viewerProcedure.query(async ({ ctx }) => ({
    consoleEnv: ctx.node.env,
    envs: await listKnownEnvs({ db: ctx.db }),
  })),
});
