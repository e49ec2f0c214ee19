import { TRPCError } from "@trpc/server";
import { hintMatchesEnv, type TLiveHint } from "../../live/live-hint";
import { getLiveHub } from "../../live/live-hub";
import { createTrpcRouter, viewerProcedure } from "../init";
import { ZLiveEventsInput } from "./live.schema";
import { resolveEnv } from "./shared.schema";

export const liveRouter = createTrpcRouter({
  /**
   * The console's push channel (SSE through httpSubscriptionLink): invalidation hints from the
   * cluster's bus for the env the page looks at. Protected like every read: the stream opens
   * only for a signed-in viewer, and ends with the connection (maxDurationMs in init.ts makes
   * the browser reconnect, which checks the session again).
   */
  events: viewerProcedure.input(ZLiveEventsInput).subscription(async function* ({
    ctx,
    input,
    signal,
  }): AsyncGenerator<TLiveHint> {
    const env = resolveEnv(ctx.node.env, input?.env);
    const opened = getLiveHub().open((hint) => hintMatchesEnv(hint, env), signal);
    if (opened.kind === "busy") {
      throw new TRPCError({
        code: "TOO_MANY_REQUESTS",
        message: "Too many live streams on this console; the page refreshes by polling.",
      });
    }
    yield* opened.hints;
  }),
});
