import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, mkdirSync, openSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { inheritedEnvironment } from "../env";
import type { TCommand } from "./commands";

/** The faults package directory: tsx and the entries resolve from here. */
export const FAULTS_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface ChildOptions {
  /** Entry, relative to the faults package (e.g. src/cluster/worker-main.ts). */
  entry: string;
  /** Modules loaded before the entry (after tsx), e.g. the clock-skew preload. */
  preload?: string[];
  env: Record<string, string>;
  /** stderr goes here (appended), for reading after a failed run. */
  stderrFile: string;
}

type Line = Record<string, unknown>;

/**
 * A cluster process started as `node --import tsx <entry>` (no wrapper process in between, so
 * SIGKILL and SIGSTOP reach the node itself), talking JSON lines: commands on stdin with an id,
 * replies and events on stdout.
 */
export class ClusterChild {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly events: Line[] = [];
  #nextId = 1;
  readonly #pending = new Map<
    number,
    { resolve: (v: unknown) => void; reject: (e: Error) => void }
  >();
  readonly #waiters = new Set<() => void>();
  #exitedCode: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  constructor(options: ChildOptions) {
    mkdirSync(path.dirname(options.stderrFile), { recursive: true });
    const stderr = openSync(options.stderrFile, "a");
    const preload = (options.preload ?? []).flatMap((file) => ["--import", file]);
    this.child = spawn(process.execPath, ["--import", "tsx", ...preload, options.entry], {
      cwd: FAULTS_ROOT,
      env: { ...inheritedEnvironment(), ...options.env },
      stdio: ["pipe", "pipe", stderr],
    });
    closeSync(stderr);
    this.exited = new Promise((resolve) => {
      this.child.once("exit", (code, signal) => {
        this.#exitedCode = { code, signal };
        for (const { reject } of this.#pending.values()) {
          reject(new Error(`process ${this.pid} exited (${signal ?? code})`));
        }
        this.#pending.clear();
        for (const wake of [...this.#waiters]) wake();
        resolve({ code, signal });
      });
    });
    // A write to a killed child's stdin fails with EPIPE; the exit is what matters.
    this.child.stdin?.on("error", () => undefined);
    createInterface({ input: this.child.stdout as NodeJS.ReadableStream }).on("line", (text) =>
      this.#onLine(text),
    );
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** Alive and past its start-up (it printed `ready`). */
  get ready(): boolean {
    return this.alive && this.events.some((line) => line.event === "ready");
  }

  get alive(): boolean {
    return this.#exitedCode === undefined;
  }

  /** Sends a command and resolves with its reply's result (rejects on an error reply or exit). */
  request<T = unknown>(command: TCommand, timeoutMs: number): Promise<T> {
    if (!this.alive) return Promise.reject(new Error(`process ${this.pid} is not running`));
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`process ${this.pid}: no reply to ${command.cmd} in ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value as T);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.child.stdin?.write(`${JSON.stringify({ id, ...command })}\n`);
    });
  }

  /** Resolves with the first event line matching, as soon as it is printed. */
  waitForEvent(predicate: (line: Line) => boolean, timeoutMs: number): Promise<Line> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const found = this.events.find(predicate);
        if (found) {
          cleanup();
          resolve(found);
        } else if (!this.alive) {
          cleanup();
          reject(new Error(`process ${this.pid} exited before the awaited event`));
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`process ${this.pid}: awaited event not seen in ${timeoutMs} ms`));
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        this.#waiters.delete(check);
      };
      this.#waiters.add(check);
      check();
    });
  }

  signal(signal: NodeJS.Signals): void {
    if (this.alive) process.kill(this.pid, signal);
  }

  /** SIGKILL and wait for the exit. */
  async kill(): Promise<void> {
    if (this.alive) this.child.kill("SIGKILL");
    await this.exited;
  }

  #onLine(text: string): void {
    let line: Line;
    try {
      line = JSON.parse(text) as Line;
    } catch {
      return;
    }
    if (typeof line.reply === "number") {
      const pending = this.#pending.get(line.reply);
      this.#pending.delete(line.reply);
      if (line.ok === true) pending?.resolve(line.result);
      else pending?.reject(new Error(String(line.error)));
      return;
    }
    this.events.push(line);
    for (const wake of [...this.#waiters]) wake();
  }
}
