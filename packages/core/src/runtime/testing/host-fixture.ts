import type pg from "pg";
import { vi } from "vitest";
import {
  ActorRegistry,
  defineActor,
  StrategyRegistry,
  type ActorDefinition,
  type ActorInput,
  type BudgetInput,
  type Strategy,
} from "../../actors/index";
import type { Bus } from "../../bus/index";
import { PostgresWorkClaims } from "../../claims/index";
import { ModeController } from "../../modes/index";
import { silentLogger, Telemetry } from "../../telemetry/index";
import { DeferredRunner } from "../../deferred/index";
import { ActorHost } from "../index";
import { stepsStrategy } from "./test-strategies";

export interface EpisodeRowForTests {
  status: string;
  error_class: string | null;
  error_message: string | null;
  turns_used: number;
  tokens_used: string;
  started_at: Date | null;
  finished_at: Date | null;
  executed_by: string | null;
  result: unknown;
}

/** Single-process hosts on a test database, and the lookups the host tests share. */
export function createHostFixture(pool: () => pg.Pool) {
  const hosts: ActorHost[] = [];

  function startHost(
    actors: ActorDefinition[],
    options: {
      leaseSeconds?: number;
      bus?: Bus;
      telemetry?: Telemetry;
      requestPrefetch?: number;
      endsPerSlot?: number;
      /**
       * Default `claim_rows`: the host suites pin the claim-row path (custom adapters,
       * `postgres-claim-rows`, an old node's claim rows); episode-lease-runtime.integration.test.ts
       * runs the episode's own lease (`in_row`, the built-in default).
       */
      episodeLeases?: "in_row" | "claim_rows";
    } = {},
  ) {
    const db = pool();
    const telemetry = options.telemetry ?? new Telemetry();
    const nodeIdentity = `node-${hosts.length}-${Math.random().toString(16).slice(2, 8)}`;
    const strategies = new StrategyRegistry({ steps: stepsStrategy });
    const registry = new ActorRegistry({ actors, strategies });
    const modes = new ModeController({ nodeIdentity, baseMode: "full" });
    const common = { nodeIdentity, stack: null, env: null, logger: silentLogger, telemetry };
    const host = new ActorHost({
      ...common,
      db,
      registry,
      modes,
      claims: new PostgresWorkClaims({
        db,
        telemetry,
        episodeLeases: options.episodeLeases ?? "claim_rows",
      }),
      leaseSeconds: options.leaseSeconds ?? 30,
      ...(options.bus === undefined ? {} : { bus: options.bus }),
      ...(options.requestPrefetch === undefined
        ? {}
        : { requestPrefetch: options.requestPrefetch }),
      ...(options.endsPerSlot === undefined ? {} : { endsPerSlot: options.endsPerSlot }),
      deferred: new DeferredRunner({ ...common, db }),
      jitterMs: 0,
    });
    host.start();
    hosts.push(host);
    return { host, modes, nodeIdentity };
  }

  /** One manual expectation `run`. */
  function actor(
    identifier: string,
    strategy: Strategy | string,
    extra: Partial<ActorInput> = {},
    // The host tests run endless strategies until a stop or a claim loss ends them, so their
    // default is no practical turn limit; `{}` gives an actor Cyclium's default budget.
    budget: BudgetInput = { maxTurns: 1_000_000 },
  ): ActorDefinition {
    return defineActor({
      identifier,
      expectations: [{ id: "run", strategy, trigger: { manual: true }, budget }],
      ...extra,
    });
  }

  async function episode(id: string): Promise<EpisodeRowForTests> {
    const { rows } = await pool().query<EpisodeRowForTests>(
      "SELECT * FROM cyclium_episodes WHERE id = $1",
      [id],
    );
    const row = rows[0];
    if (!row) throw new Error(`no episode ${id}`);
    return row;
  }

  async function fired(host: ActorHost, actorId: string, input: unknown = {}): Promise<string> {
    const result = await host.fire({ actorId, expectationId: "run", triggerType: "manual", input });
    if (result.kind !== "created") throw new Error(result.kind);
    return result.episodeId;
  }

  /** Waits for a final status. */
  function settled(id: string): Promise<EpisodeRowForTests> {
    return vi.waitFor(
      async () => {
        const row = await episode(id);
        if (row.status === "pending" || row.status === "running") {
          throw new Error(`still ${row.status}`);
        }
        return row;
      },
      { timeout: 15_000, interval: 20 },
    );
  }

  async function stepCount(id: string): Promise<number> {
    const { rowCount } = await pool().query(
      "SELECT 1 FROM cyclium_episode_steps WHERE episode_id = $1",
      [id],
    );
    return rowCount ?? 0;
  }

  /** Stops every host started so far, letting current steps run for `graceMs`. */
  async function stopAll(graceMs = 0): Promise<void> {
    await Promise.all(hosts.splice(0).map((host) => host.stop({ graceMs })));
  }

  return { startHost, actor, episode, fired, settled, stepCount, stopAll };
}
