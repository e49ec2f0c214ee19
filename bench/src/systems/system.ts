import type pg from "pg";
import type { BuiltinSystemId, SystemId } from "./system-id";

/** Fires one item and resolves once its insert is committed (the latency clock starts then). */
export interface Firer {
  fire(item: number): Promise<void>;
  close(): Promise<void>;
}

/** What the database says about a finished drain. */
export interface DrainCheck {
  /** Items whose completion is committed. */
  completed: number;
  /** Problems found (items lost, completed twice, rows in a wrong state); empty when all is well. */
  problems: string[];
}

/** The parent-process side of a system under test. */
export interface BenchSystem {
  id: SystemId;
  /** Column header in the report. */
  label: string;
  /** How it is configured, one line for the report. */
  settings: string;
  /** Installs the system's schema (and queue) into an empty database that becomes a template. */
  install(url: string): Promise<void>;
  /** Inserts items 0..count-1 in bulk, as the system's own writer would. */
  seed(url: string, count: number): Promise<void>;
  /** One statement returning `remaining`: items whose completion is not committed yet. */
  remainingSql: string;
  /** Counts completions and checks every item completed exactly once. */
  check(client: pg.Client, count: number): Promise<DrainCheck>;
  createFirer(url: string): Promise<Firer>;
  /**
   * Set when the system polls every few seconds at this configuration: draining the full item
   * count would take hours, so its drain is measured as completions within a fixed window (the
   * rate is what the report compares), and it gets fewer latency samples (each takes ~1 s).
   */
  slow?: true;
  /** Measured in the drain only (the SQL floor: no handler, so no start latency). */
  drainOnly?: true;
  /**
   * Its worker processes run another checkout's bench child (`--baseline`): `entry` is that
   * checkout's bench/src/child/main.ts, `system` the id it knows the system by.
   */
  child?: { entry: string; system: BuiltinSystemId };
}
