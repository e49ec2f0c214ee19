import { PgBus } from "../../../../packages/core/src/bus/index";
import { claimKeyOf } from "../../../../packages/core/src/claims/index";
import {
  EPISODE_EVENT_TOPICS,
  endEpisodes,
  episodeEvent,
  startEpisodes,
  type EpisodeEnd,
} from "../../../../packages/core/src/episodes/index";
import { claimTriggerRequests } from "../../../../packages/core/src/deferred/index";
import pg from "pg";
import { itemOf, type Consumer, type ConsumerOptions } from "../consumer";
import { reportToStderr } from "../stderr-logger";
import { BENCH_ACTOR_ID } from "../cyclium/actor";

/** Episodes per claim, start and end statement: a full node's 24 slots at once. */
export const SQL_FLOOR_BATCH = 24;
/** Loops per worker process, each with its batch in flight (the runtime's slots overlap so). */
export const SQL_FLOOR_LOOPS = 4;
/** An empty claim waits this long before the next one (the drain's tail only). */
const IDLE_MS = 5;

/**
 * No runtime: `SQL_FLOOR_LOOPS` loops, each claiming `SQL_FLOOR_BATCH` pending trigger requests,
 * starting their episodes in one statement and ending them in one (final step journaled, claim
 * done, request completed, the episode event's NOTIFY), through the core functions the poller and
 * BatchedEpisodeWrites call. What the drain could reach if the runtime cost nothing.
 */
export async function prepareSqlFloorConsumer(options: ConsumerOptions): Promise<Consumer> {
  const node = `floor-${options.label}`;
  const pool = new pg.Pool({ connectionString: options.url, max: SQL_FLOOR_LOOPS + 1 });
  pool.on("error", (err) => reportToStderr(options.label, "warn", "idle connection failed", err));
  const bus = await PgBus.start({ db: pool, connection: options.url, cleanup: false });
  let stopping = false;
  const loop = async (): Promise<void> => {
    while (!stopping) {
      const claimed = await claimTriggerRequests(
        {
          node,
          limits: [{ actorId: BENCH_ACTOR_ID, limit: SQL_FLOOR_BATCH }],
          sourceStack: null,
          sourceEnv: null,
        },
        pool,
      );
      if (claimed.length === 0) {
        await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
        continue;
      }
      const starts = await startEpisodes(
        {
          owner: node,
          leaseSeconds: 120,
          episodes: claimed.map((request) => ({
            episodeId: request.episode.id,
            claimKey: claimKeyOf(request.episode),
          })),
        },
        pool,
      );
      const ends: EpisodeEnd[] = [];
      starts.forEach((start, index) => {
        const request = claimed[index];
        if (start.kind !== "started" || request === undefined) return;
        options.onExecute(itemOf(start.episode.input));
        const notify = bus.inlineNotification(
          EPISODE_EVENT_TOPICS.completed,
          episodeEvent({
            ...start.episode,
            status: "completed",
            errorClass: null,
            errorMessage: null,
          }),
        );
        ends.push({
          episodeId: start.episode.id,
          fence: { dedupeKey: claimKeyOf(start.episode), owner: node, attempt: start.attempt },
          status: "completed",
          result: null,
          finalStep: {
            stepNo: 1,
            outcome: "done",
            data: null,
            turns: 0,
            tokens: 0,
            durationMs: 0,
            attempt: start.attempt,
          },
          triggerRequestId: request.id,
          ...(notify === undefined ? {} : { notify }),
        });
      });
      if (ends.length > 0) await endEpisodes({ node, ends }, pool);
    }
  };
  let loops: Promise<void>[] = [];
  return {
    start() {
      loops = Array.from({ length: SQL_FLOOR_LOOPS }, () => loop());
      return Promise.resolve();
    },
    async stop() {
      stopping = true;
      await Promise.all(loops);
      await bus.close();
      await pool.end();
    },
  };
}
