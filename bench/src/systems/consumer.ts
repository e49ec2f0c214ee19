/** The worker-process side of a system: a consumer that runs a no-op handler per item. */
export interface ConsumerOptions {
  url: string;
  /** Handlers running at once in this process. */
  concurrency: number;
  /** Names this process in the system's own tables (node identity, worker id). */
  label: string;
  /** Register the OpenTelemetry SDK first (the `cyclium-traced` system). */
  trace?: boolean;
  /** Put the actor under a cluster-wide limit of this many running (the `cyclium-limited` system). */
  globalLimit?: number;
  /** Called at the start of every handler execution with the item's number. */
  onExecute: (item: number) => void;
}

export interface Consumer {
  /** Starts taking work (the drain clock starts just before). */
  start(): Promise<void>;
  /** Stops taking work, lets running handlers finish and closes every connection. */
  stop(): Promise<void>;
}

export type PrepareConsumer = (options: ConsumerOptions) => Promise<Consumer>;

/** The item number out of a payload `{ n, pad }`; throws on anything else (a harness bug). */
export function itemOf(payload: unknown): number {
  if (typeof payload === "object" && payload !== null && "n" in payload) {
    const n = payload.n;
    if (typeof n === "number" && Number.isInteger(n)) return n;
  }
  throw new Error(`payload without an item number: ${JSON.stringify(payload)}`);
}
