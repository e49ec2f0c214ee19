import { listEpisodeAttempts } from "@cyclium/core/console";
import { audited } from "../../audit";
import { retryEpisodeWithEditedInput } from "../../commands/episodes/retry-with-input";
import { requireConsoleRuntime } from "../../runtime/console-runtime";
import { createTrpcRouter, operatorProcedure, viewerProcedure } from "../init";
import { toWire } from "../to-wire";
import { ZEpisodeAttemptsInput, ZRetryWithInputInput } from "./attempts.schema";

/**
 * Failures you can investigate (issue 14): the error of each attempt of an episode that did not
 * complete, and retry with an edited input. The stored error (stack included) is the episode's
 * data, what the user's strategy threw; the server's own errors never reach the browser.
 */
export const attemptsRouter = createTrpcRouter({
  list: viewerProcedure
    .input(ZEpisodeAttemptsInput)
    .query(async ({ ctx, input }) =>
      toWire(await listEpisodeAttempts({ episodeId: input.id }, ctx.db)),
    ),

  retryWithInput: operatorProcedure.input(ZRetryWithInputInput).mutation(({ ctx, input }) =>
    audited(
      ctx,
      {
        action: "episodes.retry_with_input",
        target: input.id,
        detail: { inputKeys: Object.keys(input.input).slice(0, 20) },
      },
      (tx) =>
        retryEpisodeWithEditedInput({
          db: tx,
          registry: requireConsoleRuntime().registry,
          id: input.id,
          input: input.input,
          by: ctx.principal.name,
          sourceNode: ctx.node.identity,
        }),
    ),
  ),
});
