// The episode list's totals and its "select all N matching" commands (issue 14 item 2). Thin:
// the filter comes from episodeFiltersFrom, each procedure calls one core function.
import {
  createBusPublisher,
  previewBulkEpisodeCommand,
  runBulkEpisodeCommand,
  type BulkEpisodeCommand,
  type BulkEpisodeCommandOutcome,
  countEpisodes,
} from "@cyclium/core/console";
import { auditedBulk, type TAuditContext } from "../../audit";
import { operatorProcedure, viewerProcedure } from "../init";
import { episodeFiltersFrom } from "./episode-search-filters";
import { ZEpisodeBulkInput, ZEpisodeBulkPreviewInput } from "./episodes-bulk.schema";
import { ZEpisodeFilterInput, type TEpisodeFilterInput } from "./episodes.schema";

type TBulkContext = TAuditContext & { node: { env: string | null } };

function runBulk(
  ctx: TBulkContext,
  input: TEpisodeFilterInput,
  command: BulkEpisodeCommand,
): Promise<BulkEpisodeCommandOutcome> {
  const filters = episodeFiltersFrom(ctx.node.env, input);
  return auditedBulk(
    ctx,
    {
      action: `episodes.bulk_${command.kind}`,
      target: input.q ?? null,
      // What was asked (the selects and the search as typed) and what it meant.
      detail: { query: input, filters },
    },
    (db, progress) => runBulkEpisodeCommand({ command, filters, onBatch: progress }, db),
  );
}

export const episodeSearchProcedures = {
  /** The list's total for its filter: exact up to 10,000, past it PostgreSQL's estimate. */
  count: viewerProcedure
    .input(ZEpisodeFilterInput)
    .query(({ ctx, input }) =>
      countEpisodes({ db: ctx.db, filters: episodeFiltersFrom(ctx.node.env, input) }),
    ),

  /** How many episodes a bulk command would change: those matching in a status it applies to. */
  bulkPreview: viewerProcedure.input(ZEpisodeBulkPreviewInput).query(({ ctx, input }) => {
    const { command, ...filterInput } = input;
    return previewBulkEpisodeCommand({
      db: ctx.db,
      command,
      filters: episodeFiltersFrom(ctx.node.env, filterInput),
    });
  }),

  bulkRetry: operatorProcedure.input(ZEpisodeBulkInput).mutation(({ ctx, input }) =>
    runBulk(ctx, input, {
      kind: "retry",
      by: ctx.principal.name,
      sourceNode: ctx.node.identity,
    }),
  ),

  bulkCancel: operatorProcedure.input(ZEpisodeBulkInput).mutation(({ ctx, input }) =>
    runBulk(ctx, input, {
      kind: "cancel",
      reason: `Cancelled by ${ctx.principal.name} (bulk).`,
      bus: createBusPublisher({ db: ctx.db, nodeIdentity: ctx.node.identity }),
    }),
  ),

  bulkArchive: operatorProcedure
    .input(ZEpisodeBulkInput)
    .mutation(({ ctx, input }) => runBulk(ctx, input, { kind: "archive" })),
};
