import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { isChildMessage, type ChildMessage, type ParentMessage, type WorkerRole } from "./protocol";

const ENTRY = fileURLToPath(new URL("./main.ts", import.meta.url));

type MessageOf<T extends ChildMessage["type"]> = Extract<ChildMessage, { type: T }>;

/**
 * A bench worker process, run by the same Node binary and loader as this process (the launcher
 * put both on Node >= 22.18), talking over IPC.
 */
export class WorkerProcess {
  /** Latest executed count the process reported (drain progress). */
  executed = 0;
  readonly #child: ChildProcess;
  readonly #waiters = new Map<string, (message: ChildMessage) => void>();
  readonly #startedListeners = new Set<(item: number, at: number) => void>();
  readonly #messageListeners = new Set<(message: ChildMessage) => void>();
  #failure: Error | undefined;
  #onFailure: ((error: Error) => void)[] = [];
  readonly exited: Promise<number | null>;

  /** `entry`: another checkout's bench/src/child/main.ts (`--baseline`); this one's by default. */
  constructor(role: WorkerRole, entry: string = ENTRY) {
    this.#child = fork(entry, [JSON.stringify(role)], {
      execArgv: process.execArgv,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    this.#child.on("message", (message: unknown) => {
      if (isChildMessage(message)) this.#receive(message);
    });
    this.exited = new Promise((resolve) => {
      this.#child.on("exit", (code) => {
        this.#fail(new Error(`bench worker exited (code ${String(code)}) before answering`));
        resolve(code);
      });
    });
  }

  onStarted(listener: (item: number, at: number) => void): void {
    this.#startedListeners.add(listener);
  }

  /** Every message the process sends (the burst's periodic progress). */
  onMessage(listener: (message: ChildMessage) => void): void {
    this.#messageListeners.add(listener);
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  send(message: ParentMessage): void {
    this.#child.send(message);
  }

  /** The next message of `type`; rejects when the process fails or exits first. */
  next<T extends ChildMessage["type"]>(type: T): Promise<MessageOf<T>> {
    if (this.#failure) return Promise.reject(this.#failure);
    return new Promise((resolve, reject) => {
      this.#waiters.set(type, (message) => resolve(message as MessageOf<T>));
      this.#onFailure.push(reject);
    });
  }

  /** Sends `stop` and returns what the process executed, then waits for it to exit. */
  async stop(): Promise<MessageOf<"stopped">> {
    const stopped = this.next("stopped");
    this.send({ type: "stop" });
    const message = await stopped;
    await this.exited;
    return message;
  }

  kill(): void {
    if (this.#child.exitCode === null) this.#child.kill("SIGKILL");
  }

  #receive(message: ChildMessage): void {
    if (message.type === "progress") this.executed = message.executed;
    for (const listener of this.#messageListeners) listener(message);
    if (message.type === "started") {
      for (const listener of this.#startedListeners) listener(message.item, message.at);
    }
    if (message.type === "failed") {
      this.#fail(new Error(`bench worker failed: ${message.message}`));
      return;
    }
    const waiter = this.#waiters.get(message.type);
    if (waiter !== undefined) {
      this.#waiters.delete(message.type);
      waiter(message);
    }
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const reject of this.#onFailure.splice(0)) reject(error);
  }
}
