import {
  explainPendingEpisodes,
  getEpisodeDetail,
  listEpisodeFacets,
  listEpisodes,
  findExpectation,
  listEpisodeOutputs,
  listCheckpoints,
} from "@cyclium/core/console";
import { audited } from "../../audit";
import {
  archiveEpisode,
  cancelEpisode,
  retryEpisode,
} from "../../commands/episodes/episode-commands";
import { findConsoleRuntime } from "../../runtime/console-runtime";
import { signalEpisode } from "../../commands/episodes/signal-episode";
import { loadEpisodeWait } from "@cyclium/core/console";
import { createTrpcRouter, operatorProcedure, viewerProcedure } from "../init";
import { toWire } from "../to-wire";
import { episodeSearchProcedures } from "./episodes-bulk";
import { episodeFiltersFrom } from "./episode-search-filters";
import {
  ZEpisodeFacetsInput,
  ZEpisodeIdInput,
  ZEpisodeIdsInput,
  ZEpisodeListInput,
  ZEpisodeSignalInput,
} from "./episodes.schema";
import { resolveEnv } from "./shared.schema";

export const episodesRouter = createTrpcRouter({
  list: viewerProcedure.input(ZEpisodeListInput).query(async ({ ctx, input }) =>
    toWire(
      await listEpisodes({
        db: ctx.db,
        filters: episodeFiltersFrom(ctx.node.env, input),
        cursor: input.cursor,
        direction: input.direction,
        limit: input.limit,
      }),
    ),
  ),

  /** Values for the filter dropdowns: actors with episodes in the env, and the registry's. */
  facets: viewerProcedure.input(ZEpisodeFacetsInput).query(({ ctx, input }) =>
    listEpisodeFacets({
      db: ctx.db,
      env: resolveEnv(ctx.node.env, input.env),
      registered: findConsoleRuntime()?.registry.list() ?? [],
    }),
  ),

  /**
   * The episode's page, with `maxAttempts`: its expectation's retry limit as this console's
   * registry knows it (1 without `retry`, null when the actor is unknown here).
   */
  detail: viewerProcedure.input(ZEpisodeIdInput).query(async ({ ctx, input }) => {
    const detail = await getEpisodeDetail({ db: ctx.db, id: input.id });
    if (detail === undefined || detail === null) return toWire(detail);
    const actor = findConsoleRuntime()?.registry.get(detail.actorId);
    const expectation = actor && findExpectation(actor, detail.expectationId);
    const maxAttempts = expectation === undefined ? null : (expectation.retry?.maxAttempts ?? 1);
    return toWire({ ...detail, maxAttempts });
  }),

  /**
   * Why each pending episode of `ids` has not started (override, mode, no live full node for its
   * env or stack, its place in a node's queue behind full slots): id -> reason; ids that are not
   * pending are absent. One statement for the page (docs/console-operator-controls.md).
   */
  waitReasons: viewerProcedure.input(ZEpisodeIdsInput).query(({ ctx, input }) =>
    explainPendingEpisodes({
      db: ctx.db,
      episodeIds: input.ids,
      actors: findConsoleRuntime()?.registry.list() ?? [],
    }),
  ),

  /** The episode's checkpoints (SPEC 12), oldest first; recovery_history says which one a restart resumed from. */
  checkpoints: viewerProcedure
    .input(ZEpisodeIdInput)
    .query(({ ctx, input }) => listCheckpoints({ episodeId: input.id }, ctx.db)),

  /** What the episode wrote with `ctx.output` (issue 20, the output router), oldest first. */
  outputs: viewerProcedure
    .input(ZEpisodeIdInput)
    .query(async ({ ctx, input }) =>
      toWire(await listEpisodeOutputs({ episodeId: input.id }, ctx.db)),
    ),

  /**
   * What the episode waits for (SPEC 17) and the signals its expectation accepts, each with its
   * payload's JSON Schema: the episode page's wait panel and its signal forms.
   */
  wait: viewerProcedure.input(ZEpisodeIdInput).query(async ({ ctx, input }) => {
    const registry = findConsoleRuntime()?.registry;
    const view = await loadEpisodeWait(
      {
        episodeId: input.id,
        expectationOf: (actorId, expectationId) => registry?.expectation(actorId, expectationId),
      },
      ctx.db,
    );
    return toWire(view ?? { wait: null, signals: [] });
  }),

  /** An operator's signal (SPEC 17), audited with who sent it and the payload. */
  signal: operatorProcedure.input(ZEpisodeSignalInput).mutation(({ ctx, input }) =>
    signalEpisode(ctx, {
      episodeId: input.id,
      name: input.name,
      payload: input.payload,
      idempotencyKey: input.idempotencyKey,
      via: "console",
    }),
  ),

  retry: operatorProcedure.input(ZEpisodeIdInput).mutation(({ ctx, input }) =>
    audited(ctx, { action: "episodes.retry", target: input.id }, (tx) =>
      retryEpisode({
        db: tx,
        id: input.id,
        by: ctx.principal.name,
        sourceNode: ctx.node.identity,
      }),
    ),
  ),

  cancel: operatorProcedure.input(ZEpisodeIdInput).mutation(({ ctx, input }) =>
    audited(ctx, { action: "episodes.cancel", target: input.id }, (tx) =>
      cancelEpisode({
        db: tx,
        id: input.id,
        by: ctx.principal.name,
        sourceNode: ctx.node.identity,
      }),
    ),
  ),

  archive: operatorProcedure
    .input(ZEpisodeIdInput)
    .mutation(({ ctx, input }) =>
      audited(ctx, { action: "episodes.archive", target: input.id }, (tx) =>
        archiveEpisode({ db: tx, id: input.id }),
      ),
    ),

  // count, bulkPreview, bulkRetry, bulkCancel, bulkArchive: the search's totals and bulk commands.
  ...episodeSearchProcedures,
});
