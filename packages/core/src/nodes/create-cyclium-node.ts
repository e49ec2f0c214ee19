import type pg from "pg";
import {
  ActorRegistry,
  DynamicActorLoader,
  StrategyRegistry,
  type ActorDefinition,
  type AnyStrategy,
} from "../actors/index";
import { isStrategyRegistry } from "../actors/strategy-registry";
import { PgBus, PgListener } from "../bus/index";
import { createWorkClaims, type WorkClaims, type WorkClaimsMode } from "../claims/index";
import { ConcurrencyLimits, ModeController, ModeSync, type Mode } from "../modes/index";
import type { NodeKind } from "./node";
import { NodeHeartbeat } from "./node-heartbeat";
import {
  ActorHost,
  limitedRequestsOf,
  publishEpisodeEvent,
  type QueueOptions,
} from "../runtime/index";
import { createRollupWriter, type Logger, type Telemetry } from "../telemetry/index";
import { DeferredRunner, TriggerRequestPoller } from "../deferred/index";
import { ExpectationTriggers } from "./expectation-triggers";
import type { CycliumNodeContext, NodeExtension, NodeExtensionHandle } from "./node-extension";

export interface CycliumNodeOptions {
  /** The node's pool; the node never closes it. */
  db: pg.Pool;
  /** For the one dedicated LISTEN connection (never a pooled one). */
  databaseUrl: string;
  kind: NodeKind;
  /** CYCLIUM_MODE: the base mode, before overrides from cyclium_mode_overrides. */
  mode: Mode;
  nodeIdentity: string;
  stack: string | null;
  env: string | null;
  /** An implementation, or CYCLIUM_WORK_CLAIMS (`postgres` | `none`). */
  workClaims: WorkClaims | WorkClaimsMode;
  leaseSeconds: number;
  poller: {
    enabled: boolean;
    intervalMs: number;
    sourceStack: string | null;
    /** Defaults to the node's env (strict). */
    sourceEnv?: string | null;
    ttlMs?: number;
    /** Requests claimed per actor beyond its free slots (ActorHost's requestPrefetch); 0 default. */
    prefetch?: number;
  };
  actors: readonly ActorDefinition[];
  strategies?: StrategyRegistry | Record<string, AnyStrategy>;
  /** Load dynamic actors from cyclium_agent_definitions (default true). */
  dynamicActors?: boolean | { intervalMs: number };
  extensions?: readonly NodeExtension[];
  logger: Logger;
  telemetry: Telemetry;
  /** Dedupe jitter upper bound in ms (SPEC section 3): default 200, 0 in tests. */
  jitterMs?: number;
  version?: string;
  /** Write per-minute telemetry rollups to cyclium_telemetry (default true). */
  telemetryRollups?: boolean;
  /** The actor queues' memory bound and reconcile rhythm (docs/queues-and-recovery.md). */
  queue?: QueueOptions;
}

export interface CycliumNode extends CycliumNodeContext {
  readonly deferred: DeferredRunner;
  /** Null until started, and on nodes without the poller. */
  readonly poller: TriggerRequestPoller | null;
  start(): Promise<void>;
  /** Stops taking work and drains (see ActorHost.stop); marks the node stopped. */
  stop(options?: { graceMs?: number }): Promise<void>;
}

/**
 * Wires one Cyclium node: listener, bus, modes (+ sync from the database), actor registry (+
 * dynamic actors), actor host with its local and deferred runners, expectation triggers, the
 * trigger request poller, the node registry heartbeat, telemetry rollups and extensions.
 * Creating it connects (so bad configuration fails here); `start()` starts taking work.
 */
export async function createCycliumNode(options: CycliumNodeOptions): Promise<CycliumNode> {
  const { db, logger, telemetry, nodeIdentity, stack, env, kind } = options;
  const claims =
    typeof options.workClaims === "string"
      ? createWorkClaims({ mode: options.workClaims, db, telemetry, logger })
      : options.workClaims;
  const strategies = isStrategyRegistry(options.strategies)
    ? options.strategies
    : new StrategyRegistry(options.strategies ?? {});
  const registry = new ActorRegistry({ actors: options.actors, strategies, logger });

  const listener = new PgListener({
    connection: options.databaseUrl,
    logger,
    applicationName: `cyclium-${kind}`,
  });
  await listener.start();
  const bus = await PgBus.start({ db, listener, logger, nodeIdentity });
  const modes = new ModeController({ nodeIdentity, baseMode: options.mode, db, logger });
  const limits = new ConcurrencyLimits({ nodeIdentity, logger });
  const modeSync = await ModeSync.start({ controller: modes, limits, db, listener, logger });
  const deferred = new DeferredRunner({ db, nodeIdentity, stack, env, logger, telemetry });
  const host = new ActorHost({
    db,
    registry,
    modes,
    limits,
    claims,
    leaseSeconds: options.leaseSeconds,
    nodeIdentity,
    stack,
    env,
    deferred,
    bus,
    ...(options.jitterMs === undefined ? {} : { jitterMs: options.jitterMs }),
    ...(options.poller.enabled && options.poller.prefetch !== undefined
      ? { requestPrefetch: options.poller.prefetch }
      : {}),
    ...(options.queue === undefined ? {} : { queue: options.queue }),
    logger,
    telemetry,
  });
  // An override that stops an actor here hands its queue over at once, and one that allows it
  // takes owned rows in, instead of at the next reconcile.
  const unsubscribeModes = modes.onChange(() => void host.reconcileQueue());
  // A limit set from the console applies without a restart (issue 14 item 6).
  const unsubscribeLimits = limits.onChange(() => host.applyLimits());
  const triggers = new ExpectationTriggers({
    registry,
    host,
    bus,
    modes,
    db,
    stack,
    env,
    nodeIdentity,
    telemetry,
    logger,
  });
  const context: CycliumNodeContext = {
    db,
    kind,
    nodeIdentity,
    stack,
    env,
    host,
    registry,
    bus,
    listener,
    modes,
    claims,
    leaseSeconds: options.leaseSeconds,
    logger,
    telemetry,
  };

  let loader: DynamicActorLoader | undefined;
  let offLoaderReconnect: (() => void) | undefined;
  let heartbeat: NodeHeartbeat | undefined;
  let poller: TriggerRequestPoller | null = null;
  const rollups =
    options.telemetryRollups === false
      ? undefined
      : createRollupWriter({ telemetry, db, node: nodeIdentity, logger });
  const extensionHandles: { name: string; handle: NodeExtensionHandle }[] = [];
  let started = false;
  let stopped = false;

  const start = async (): Promise<void> => {
    if (started) return;
    started = true;
    if (options.dynamicActors !== false) {
      const intervalMs =
        typeof options.dynamicActors === "object" ? options.dynamicActors.intervalMs : undefined;
      loader = await DynamicActorLoader.start({
        db,
        registry,
        env,
        bus,
        logger,
        ...(intervalMs === undefined ? {} : { intervalMs }),
      });
      // A change published while the listener was reconnecting is re-read at once, not at the
      // next fallback poll.
      const running = loader;
      offLoaderReconnect = listener.onReconnect(() => running.reload());
    }
    host.start();
    heartbeat = await NodeHeartbeat.start({
      db,
      node: {
        identity: nodeIdentity,
        kind,
        stack,
        env,
        version: options.version ?? null,
        strategies: strategies.names(),
      },
      modes,
      logger,
    });
    triggers.start();
    if (options.poller.enabled) {
      poller = await TriggerRequestPoller.start({
        db,
        listener,
        host,
        modes,
        nodeIdentity,
        logger,
        telemetry,
        intervalMs: options.poller.intervalMs,
        sourceStack: options.poller.sourceStack,
        sourceEnv: options.poller.sourceEnv === undefined ? env : options.poller.sourceEnv,
        ...(options.poller.ttlMs === undefined ? {} : { ttlMs: options.poller.ttlMs }),
        // The episode's own lease (SPEC section 4): requests start their episodes in one statement.
        ...(host.runner.leasesInRow ? { inRowLeaseSeconds: options.leaseSeconds } : {}),
        limited: limitedRequestsOf(registry),
        onEpisodesExpired: (episodes) => {
          for (const episode of episodes) void publishEpisodeEvent(bus, episode, logger);
        },
      });
    }
    for (const extension of options.extensions ?? []) {
      const handle = await extension.start(context);
      if (handle) extensionHandles.push({ name: extension.name, handle });
    }
    logger.info({ kind, mode: modes.status(), actors: host.actorIds() }, "cyclium node started");
  };

  const stop = async ({ graceMs = 30_000 }: { graceMs?: number } = {}): Promise<void> => {
    if (stopped) return;
    stopped = true;
    triggers.stop();
    await poller?.stop();
    for (const { name, handle } of extensionHandles.reverse()) {
      await Promise.resolve(handle.stop()).catch((err: unknown) =>
        logger.error({ err, extension: name }, "extension stop failed"),
      );
    }
    unsubscribeModes();
    unsubscribeLimits();
    await host.stop({ graceMs });
    await poller?.drain();
    await deferred.flush();
    offLoaderReconnect?.();
    await loader?.stop();
    await modeSync.stop();
    await heartbeat
      ?.stop({ markStopped: true })
      .catch((err: unknown) => logger.warn({ err }, "could not mark the node stopped"));
    await rollups?.stop();
    await bus.close();
    await listener.close();
    logger.info({ kind }, "cyclium node stopped");
  };

  return {
    ...context,
    deferred,
    get poller() {
      return poller;
    },
    start,
    stop,
  };
}
