import { silentLogger, type Logger } from "../telemetry/index";
import type { Queryable } from "../db/index";
import { clearAllModeOverrides } from "./clear-all-mode-overrides";
import { clearModeOverride } from "./clear-mode-override";
import { ALL_NODES, ZMode, type Mode, type ModeStatus } from "./mode";
import {
  effectiveModeFor,
  resolveModes,
  type OverrideEntry,
  type ResolvedModes,
} from "./resolve-modes";
import { setModeOverride } from "./set-mode-override";

export interface ModeControllerOptions {
  nodeIdentity: string;
  /** The configured mode (CYCLIUM_MODE), in force when no override applies. */
  baseMode: Mode;
  /**
   * When given, local changes are written to cyclium_mode_overrides under this node's identity,
   * so the console sees them and the node's ModeSync does not undo them on its next read.
   * Without it the controller is purely in memory (unit tests, single-process tools).
   */
  db?: Queryable;
  /** Recorded as `set_by` for local changes. Default `node:<identity>`. */
  setBy?: string;
  logger?: Logger;
}

export type ModeChangeListener = (status: ModeStatus) => void;

/**
 * A node's modes, read from memory on the hot path (`effectiveMode` is a Map lookup). Its state
 * is the set of override rows addressed to '*' or to this node; ModeSync replaces that set from
 * the database, local calls change one row and write it through.
 */
export class ModeController {
  readonly nodeIdentity: string;
  readonly baseMode: Mode;
  readonly #db: Queryable | undefined;
  readonly #setBy: string;
  readonly #logger: Logger;
  readonly #listeners = new Set<ModeChangeListener>();
  #entries = new Map<string, OverrideEntry>();
  #resolved: ResolvedModes;
  #fingerprint: string;
  #generation = 0;

  constructor(options: ModeControllerOptions) {
    if (options.nodeIdentity.length === 0) throw new TypeError("nodeIdentity must not be empty");
    this.nodeIdentity = options.nodeIdentity;
    this.baseMode = ZMode.parse(options.baseMode);
    this.#db = options.db;
    this.#setBy = options.setBy ?? `node:${options.nodeIdentity}`;
    this.#logger = options.logger ?? silentLogger;
    this.#resolved = resolveModes(this.baseMode, this.nodeIdentity, []);
    this.#fingerprint = fingerprint(this.#resolved);
  }

  /** The node-wide mode in force. */
  get nodeMode(): Mode {
    return this.#resolved.nodeMode;
  }

  /** The mode an actor runs in on this node. */
  effectiveMode(actorId: string): Mode {
    return effectiveModeFor(this.#resolved, actorId);
  }

  status(): ModeStatus {
    return {
      nodeMode: this.#resolved.nodeMode,
      overrides: Object.fromEntries(this.#resolved.actorOverrides),
      nodeIdentity: this.nodeIdentity,
      baseMode: this.baseMode,
    };
  }

  /** Sets this node's node-wide mode (an override of the configured base mode). */
  async set(mode: Mode): Promise<void> {
    await this.#write({ actorId: null, mode: ZMode.parse(mode) });
  }

  /** Drops this node's node-wide override: back to the '*' override or the base mode. */
  async resetNodeMode(): Promise<void> {
    await this.#write({ actorId: null, mode: undefined });
  }

  async setActorOverride(actorId: string, mode: Mode): Promise<void> {
    if (actorId.length === 0) throw new TypeError("actorId must not be empty");
    await this.#write({ actorId, mode: ZMode.parse(mode) });
  }

  async clearActorOverride(actorId: string): Promise<void> {
    await this.#write({ actorId, mode: undefined });
  }

  /**
   * Clears this node's per-actor overrides. Cluster-wide ('*') overrides stay in force: they
   * belong to every node and are cleared through the store with `targetNode: '*'`.
   */
  async clearAllOverrides(): Promise<void> {
    if (this.#db !== undefined) {
      await clearAllModeOverrides({ db: this.#db, targetNode: this.nodeIdentity });
    }
    this.#generation += 1;
    const next = new Map(this.#entries);
    for (const [key, entry] of next) {
      if (entry.targetNode === this.nodeIdentity && entry.actorId !== null) next.delete(key);
    }
    this.#replace(next);
  }

  /** Calls `listener` after every change of the modes in force. Returns an unsubscribe. */
  onChange(listener: ModeChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Bumped by every local change; lets ModeSync recognise reads that a local write overtook. */
  get generation(): number {
    return this.#generation;
  }

  /**
   * Replaces the override set with rows read from the store. A snapshot read before a later local
   * write (`readAtGeneration` older than `generation`) is ignored rather than briefly undoing that
   * write; the write's own NOTIFY triggers a fresh read. Returns whether the snapshot was applied.
   */
  applyOverrides(rows: Iterable<OverrideEntry>, readAtGeneration = this.#generation): boolean {
    if (readAtGeneration !== this.#generation) return false;
    const next = new Map<string, OverrideEntry>();
    for (const row of rows) {
      if (row.targetNode !== ALL_NODES && row.targetNode !== this.nodeIdentity) continue;
      next.set(entryKey(row.targetNode, row.actorId), {
        targetNode: row.targetNode,
        actorId: row.actorId,
        mode: row.mode,
      });
    }
    this.#replace(next);
    return true;
  }

  async #write(change: { actorId: string | null; mode: Mode | undefined }): Promise<void> {
    const { actorId, mode } = change;
    const targetNode = this.nodeIdentity;
    if (this.#db !== undefined) {
      if (mode === undefined) await clearModeOverride({ db: this.#db, targetNode, actorId });
      else await setModeOverride({ db: this.#db, targetNode, actorId, mode, setBy: this.#setBy });
    }
    this.#generation += 1;
    const next = new Map(this.#entries);
    const key = entryKey(targetNode, actorId);
    if (mode === undefined) next.delete(key);
    else next.set(key, { targetNode, actorId, mode });
    this.#replace(next);
  }

  #replace(entries: Map<string, OverrideEntry>): void {
    this.#entries = entries;
    const resolved = resolveModes(this.baseMode, this.nodeIdentity, entries.values());
    const print = fingerprint(resolved);
    this.#resolved = resolved;
    if (print === this.#fingerprint) return;
    this.#fingerprint = print;
    const status = this.status();
    this.#logger.info({ ...status }, "node modes changed");
    for (const listener of [...this.#listeners]) {
      try {
        listener(status);
      } catch (err) {
        this.#logger.error({ err }, "mode change listener failed");
      }
    }
  }
}

function entryKey(targetNode: string, actorId: string | null): string {
  // JSON keeps "a" + null and "a" + "null" apart, which string concatenation would not.
  return JSON.stringify([targetNode, actorId]);
}

/** Order-independent summary of the modes in force, to tell real changes from no-ops. */
function fingerprint(resolved: ResolvedModes): string {
  const actors = [...resolved.actorOverrides].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([resolved.nodeMode, actors]);
}
