import { hostname } from "node:os";
import { publishBusEvent } from "../bus/index";
import { startJitteredInterval, type JitteredInterval } from "../timers/index";
import { silentLogger, type Logger } from "../telemetry/index";
import type { Queryable } from "../db/index";
import type { ModeController } from "../modes/index";
import { markNodeStopped } from "./mark-node-stopped";
import type { NodeInfo } from "./node";
import { recordNodeHeartbeat } from "./record-node-heartbeat";
import { registerNode } from "./register-node";

/**
 * Published after the beat that records a change of this node's modes, so a console shows the
 * override applied within the same second instead of at its next poll (issue 14: "applying…"
 * stayed for about 3 s although the worker had applied the override in 0.2 s).
 */
export const NODE_MODES_APPLIED_TOPIC = "node.modes_applied";

/** Default beat interval; listNodes' default window tolerates three missed beats. */
export const DEFAULT_NODE_HEARTBEAT_MS = 5_000;

export interface NodeHeartbeatOptions {
  db: Queryable;
  /** host and pid default to this process's; mode and overrides come from `modes` when given. */
  node: Omit<NodeInfo, "mode" | "overrides"> & Partial<Pick<NodeInfo, "mode" | "overrides">>;
  /** Reports the modes in force on every beat, and beats at once when they change. */
  modes?: Pick<ModeController, "status" | "onChange">;
  intervalMs?: number;
  logger?: Logger;
}

/**
 * Keeps this process's row in cyclium_nodes fresh. A failed beat is logged and retried on the
 * next tick: the registry is for operators, it must never take a node down.
 */
export class NodeHeartbeat {
  readonly #db: Queryable;
  readonly #node: NodeHeartbeatOptions["node"];
  readonly #modes: NodeHeartbeatOptions["modes"];
  readonly #intervalMs: number;
  readonly #logger: Logger;
  #timer: JitteredInterval | undefined;
  #offModeChange: (() => void) | undefined;
  #beating: Promise<void> = Promise.resolve();
  #failing = false;
  #stopped = false;

  private constructor(options: NodeHeartbeatOptions) {
    this.#db = options.db;
    this.#node = options.node;
    this.#modes = options.modes;
    this.#intervalMs = options.intervalMs ?? DEFAULT_NODE_HEARTBEAT_MS;
    this.#logger = options.logger ?? silentLogger;
    if (this.#modes === undefined && this.#node.mode === undefined) {
      throw new TypeError("NodeHeartbeat needs node.mode or a ModeController");
    }
  }

  /** Registers the node (rejecting if that fails) and starts beating. */
  static async start(options: NodeHeartbeatOptions): Promise<NodeHeartbeat> {
    const heartbeat = new NodeHeartbeat(options);
    await registerNode({ db: heartbeat.#db, node: heartbeat.#info() });
    heartbeat.#timer = startJitteredInterval(() => void heartbeat.beat(), heartbeat.#intervalMs);
    heartbeat.#offModeChange = heartbeat.#modes?.onChange(() => void heartbeat.#beatModeChange());
    return heartbeat;
  }

  /** Beats now. Beats never overlap: each waits for the previous one. Never rejects. */
  beat(): Promise<void> {
    if (this.#stopped) return this.#beating;
    this.#beating = this.#beating.then(() => this.#beatOnce());
    return this.#beating;
  }

  /** Stops beating and, unless told otherwise, marks the node stopped. */
  async stop({ markStopped = true }: { markStopped?: boolean } = {}): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#timer?.stop();
    this.#offModeChange?.();
    await this.#beating;
    if (markStopped) await markNodeStopped({ db: this.#db, identity: this.#node.identity });
  }

  async #beatModeChange(): Promise<void> {
    await this.beat();
    if (this.#stopped || this.#failing) return;
    const { identity } = this.#node;
    try {
      // No env in the payload: the modes grid shows every node of the cluster, whatever env a
      // console inspects.
      await publishBusEvent({
        db: this.#db,
        topic: NODE_MODES_APPLIED_TOPIC,
        payload: { node: identity },
        source: identity,
      });
    } catch (err) {
      this.#logger.warn({ err }, "could not publish the applied modes");
    }
  }

  async #beatOnce(): Promise<void> {
    if (this.#stopped) return;
    try {
      await recordNodeHeartbeat({ db: this.#db, node: this.#info() });
      if (this.#failing) this.#logger.info({}, "node heartbeat recovered");
      this.#failing = false;
    } catch (err) {
      // Logged once per outage rather than on every tick.
      if (!this.#failing) this.#logger.warn({ err }, "node heartbeat failed; will retry");
      this.#failing = true;
    }
  }

  #info(): NodeInfo {
    const status = this.#modes?.status();
    return {
      ...this.#node,
      host: this.#node.host ?? hostname(),
      pid: this.#node.pid ?? process.pid,
      mode: status?.nodeMode ?? this.#node.mode ?? "full",
      overrides: status?.overrides ?? this.#node.overrides ?? {},
    };
  }
}
