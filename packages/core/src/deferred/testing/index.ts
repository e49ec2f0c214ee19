import { PgListener } from "../../bus/index";
import type { Queryable } from "../../db/index";
import { silentLogger, Telemetry } from "../../telemetry/index";
import type { LimitedRequests } from "../start-limited-requests";
import { TriggerRequestPoller, type PollerHost, type PollerModes } from "../trigger-request-poller";

/**
 * For tests: the trigger-request poller of a full node, as a worker runs it (its own LISTEN
 * connection to `url`, every stack and env), for `host`. `stop` stops the poller, then closes
 * its listener.
 */
export async function startTestPoller(options: {
  url: string;
  db: Queryable;
  host: PollerHost;
  modes: PollerModes & { nodeIdentity: string };
  /** The fallback poll; wake-ups come by NOTIFY. */
  intervalMs: number;
  /** The episode's own lease: start in the poll (see TriggerRequestPollerOptions). */
  inRowLeaseSeconds?: number;
  /** Actors under cluster-wide limits (see TriggerRequestPollerOptions). */
  limited?: LimitedRequests;
}): Promise<{ poller: TriggerRequestPoller; stop: () => Promise<void> }> {
  const listener = new PgListener({ connection: options.url });
  await listener.start();
  const poller = await TriggerRequestPoller.start({
    db: options.db,
    listener,
    host: options.host,
    modes: options.modes,
    nodeIdentity: options.modes.nodeIdentity,
    intervalMs: options.intervalMs,
    sourceStack: null,
    sourceEnv: null,
    logger: silentLogger,
    telemetry: new Telemetry(),
    ...(options.inRowLeaseSeconds === undefined
      ? {}
      : { inRowLeaseSeconds: options.inRowLeaseSeconds }),
    ...(options.limited === undefined ? {} : { limited: options.limited }),
  });
  return {
    poller,
    async stop() {
      await poller.stop();
      await listener.close();
    },
  };
}
