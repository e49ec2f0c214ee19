import { createTrpcRouter, publicProcedure } from "../init";
import { ZSessionOutput } from "./auth.schema";

export const authRouter = createTrpcRouter({
  /** Who the browser is signed in as, or null. Public: the sign-in page asks it too. */
  session: publicProcedure.output(ZSessionOutput).query(({ ctx }) => ctx.principal),
});
