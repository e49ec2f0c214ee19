import path from "node:path";
import { TcpProxy } from "../proxy/tcp-proxy";
import { ClusterChild } from "./child-process";

export interface ClusterConfig {
  /** The scenario's results directory: history/ and logs/ go below it. */
  dir: string;
  databaseUrl: string;
  workers: number;
  leaseSeconds: number;
  pollIntervalMs: number;
  recoveryDelayMs: number;
  recoveryIntervalMs: number;
  staleAfterMs: number;
  /** Wall-clock offsets per worker (scenario 7); missing entries mean none. */
  clockOffsetsMs?: readonly number[];
  writerClockOffsetMs?: number;
  /** Route each worker through a TcpProxy of its own, to partition it (scenario 5). */
  proxied?: boolean;
}

export interface WorkerSlot {
  readonly index: number;
  /** The node identity; a worker replaced under a new identity (scenarios 8, 10) changes it. */
  identity: string;
  child: ClusterChild;
  generation: number;
  readonly proxy: TcpProxy | undefined;
}

/** Every process ever started, so an interrupted run can kill them all on the way out. */
const everyChild = new Set<ClusterChild>();

export function killEveryChild(): void {
  for (const child of everyChild) if (child.alive) child.child.kill("SIGKILL");
}

const READY_TIMEOUT_MS = 180_000;
const SKEW_PRELOAD = "./src/cluster/skew-clock.ts";

/**
 * Four workers and a trigger-only writer on one database. A worker that is killed comes back
 * under the same identity (a pod restarted with a static CYCLIUM_NODE_IDENTITY), as a new
 * process with its own history file.
 */
export class Cluster {
  readonly workers: WorkerSlot[] = [];
  writer!: ClusterChild;
  readonly #config: ClusterConfig;

  private constructor(config: ClusterConfig) {
    this.#config = config;
  }

  static async start(config: ClusterConfig): Promise<Cluster> {
    const cluster = new Cluster(config);
    const proxies = await Promise.all(
      Array.from({ length: config.workers }, () =>
        config.proxied
          ? TcpProxy.start(Number(new URL(config.databaseUrl).port))
          : Promise.resolve(undefined),
      ),
    );
    proxies.forEach((proxy, index) => {
      const identity = `w${index + 1}`;
      const child = cluster.#spawnWorker({ index, identity, generation: 0, proxy });
      cluster.workers.push({ index, identity, generation: 0, proxy, child });
    });
    cluster.writer = cluster.#spawn("writer", 0, "src/cluster/writer-main.ts", {
      databaseUrl: config.databaseUrl,
      role: "writer",
      offsetMs: config.writerClockOffsetMs ?? 0,
    });
    await Promise.all([cluster.writer, ...cluster.workers.map((w) => w.child)].map(waitReady));
    return cluster;
  }

  get config(): ClusterConfig {
    return this.#config;
  }

  /**
   * SIGKILL the worker and start it again at once under its identity; resolves when the new
   * process is ready. The slot's `child` is the new process from the moment it is spawned.
   */
  async killAndRestart(slot: WorkerSlot): Promise<void> {
    await slot.child.kill();
    slot.generation += 1;
    slot.child = this.#spawnWorker(slot);
    await waitReady(slot.child);
  }

  /**
   * SIGKILL the worker and start a process under a new identity in its place (a pod rescheduled
   * under another name): nothing of the old identity comes back to pick up what it held.
   */
  async killAndReplace(slot: WorkerSlot, identity: string): Promise<void> {
    await slot.child.kill();
    slot.identity = identity;
    slot.generation = 0;
    slot.child = this.#spawnWorker(slot);
    await waitReady(slot.child);
  }

  /** Identities of the workers alive right now: the nodes that can still own queued work. */
  liveIdentities(): string[] {
    return this.workers.filter((w) => w.child.alive).map((w) => w.identity);
  }

  /** SIGKILL every process of this cluster now (a scenario over its time bound). */
  async killAll(): Promise<void> {
    const children = [this.writer, ...this.workers.map((w) => w.child)];
    await Promise.all(children.map((child) => child.kill()));
    await Promise.all(this.workers.map((w) => (w.proxy ? w.proxy.close() : Promise.resolve())));
  }

  /** Stops every process gracefully (a stop command), killing what does not exit in time. */
  async stop(): Promise<void> {
    const children = [this.writer, ...this.workers.map((w) => w.child)].filter((c) => c.alive);
    await Promise.all(
      children.map(async (child) => {
        child.signal("SIGCONT");
        await child.request({ cmd: "stop" }, 20_000).catch(() => undefined);
        const exited = await Promise.race([
          child.exited.then(() => true),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000)),
        ]);
        if (!exited) await child.kill();
      }),
    );
    await Promise.all(this.workers.map((w) => (w.proxy ? w.proxy.close() : Promise.resolve())));
  }

  #spawnWorker(slot: Omit<WorkerSlot, "child">): ClusterChild {
    const url = new URL(this.#config.databaseUrl);
    if (slot.proxy) url.port = String(slot.proxy.port);
    // Names the worker's backends in pg_stat_activity, so that a fault can terminate exactly
    // its connections (pg_terminate_backend, scenario 10).
    url.searchParams.set("application_name", `faults-${slot.identity}`);
    return this.#spawn(slot.identity, slot.generation, "src/cluster/worker-main.ts", {
      databaseUrl: url.toString(),
      role: "worker",
      offsetMs: this.#config.clockOffsetsMs?.[slot.index] ?? 0,
    });
  }

  #spawn(
    identity: string,
    generation: number,
    entry: string,
    options: { databaseUrl: string; role: "worker" | "writer"; offsetMs: number },
  ): ClusterChild {
    const c = this.#config;
    const name = `${identity}-${generation}`;
    const child = new ClusterChild({
      entry,
      ...(options.offsetMs === 0 ? {} : { preload: [SKEW_PRELOAD] }),
      stderrFile: path.join(c.dir, "logs", `${name}.stderr`),
      env: {
        DATABASE_URL: options.databaseUrl,
        FAULTS_ROLE: options.role,
        CYCLIUM_NODE_IDENTITY: identity,
        FAULTS_HISTORY_FILE: path.join(c.dir, "history", `${name}.jsonl`),
        FAULTS_LOG_FILE: path.join(c.dir, "logs", `${name}.log`),
        FAULTS_CLOCK_OFFSET_MS: String(options.offsetMs),
        CYCLIUM_WORK_CLAIMS_LEASE_SECONDS: String(c.leaseSeconds),
        CYCLIUM_TRIGGER_POLL_INTERVAL_MS: String(c.pollIntervalMs),
        CYCLIUM_RECOVERY_DELAY_MS: String(c.recoveryDelayMs),
        CYCLIUM_RECOVERY_INTERVAL_MS: String(c.recoveryIntervalMs),
        CYCLIUM_STALE_AFTER_MS: String(c.staleAfterMs),
      },
    });
    everyChild.add(child);
    return child;
  }
}

async function waitReady(child: ClusterChild): Promise<void> {
  await child.waitForEvent((line) => line.event === "ready", READY_TIMEOUT_MS);
}
