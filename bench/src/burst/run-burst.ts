/**
 * `pnpm bench --burst`: issue 18's memory bound. One worker process (burst-worker.ts: a full-mode
 * node, one actor with maxConcurrentEpisodes 2, a one-step strategy) gets a burst of events far
 * faster than two slots drain it, so its queue grows to about the burst's size; the queue's truth
 * is the table (`queued_by`) and the node keeps at most `localQueueLimit` episodes in memory.
 * Measures the worker's peak RSS (VmHWM from /proc, and VmRSS every 250 ms), the time to accept
 * the burst (every episode row inserted), the drain time, and checks every episode completed
 * exactly once: in the database, and per item by the worker's own counters.
 */
import pg from "pg";
import { PgBus } from "../../../packages/core/src/bus/index";
import { WorkerProcess } from "../child/worker-process";
import type {
  BurstProgress,
  BurstRole,
  BurstTally,
  ChildMessage,
  WorkerUsage,
} from "../child/protocol";
import type { BurstConfig } from "../config";
import type { Server } from "../pg/server";
import { payloadOf } from "../systems/payload";
import { cycliumSystem } from "../systems/cyclium/system";
import { BURST_TOPIC } from "./burst-actor";
import { readProcMemory } from "./proc-memory";

/** Events per publishing statement: one transaction, its NOTIFYs delivered at commit. */
const PUBLISH_BATCH = 1_000;
const SAMPLE_MS = 250;
const POLL_MS = 500;

export interface BurstSample {
  /** Seconds since the burst began. */
  t: number;
  /** VmRSS from /proc (or the worker's own figure), bytes. */
  rss: number;
  heapUsed: number;
  queued: number;
  completed: number;
}

export interface BurstResult {
  config: BurstConfig;
  /** How the events reached the worker. */
  delivery: string;
  /** VmHWM at the end of the drain (the process's whole life), bytes. */
  peakRss: number;
  /** VmRSS (and VmHWM) just before the burst. */
  rssBefore: number;
  hwmBefore: number;
  /** Highest VmRSS sampled during the burst. */
  maxSampledRss: number;
  maxHeapUsed: number;
  maxExternal: number;
  /** Highest queue the node reported (memory + table). */
  maxQueued: number;
  /** Seconds from the burst's start: events published (or fired), delivered, accepted, drained. */
  publishSeconds: number | null;
  deliveredSeconds: number | null;
  acceptedSeconds: number | null;
  drainSeconds: number | null;
  episodesPerSecond: number | null;
  /** Episodes/s from the end of the accept to the end of the drain (slots alone, no inserts). */
  episodesPerSecondAfterAccept: number | null;
  final: BurstProgress | null;
  tally: BurstTally | null;
  usage: WorkerUsage | null;
  database: Record<string, number>;
  samples: BurstSample[];
  problems: string[];
}

export interface BurstContext {
  server: Server;
  /** Name of the run's database (created here, dropped by the caller with the prefix). */
  database: string;
  config: BurstConfig;
  log: (message: string) => void;
}

const CHECK_SQL = `
SELECT
  (SELECT count(*) FROM cyclium_episodes)::int AS episodes,
  (SELECT count(*) FROM cyclium_episodes WHERE status = 'completed')::int AS completed,
  (SELECT count(*) FROM cyclium_episodes WHERE status IN ('pending', 'running'))::int AS unfinished,
  (SELECT count(DISTINCT input->>'n') FROM cyclium_episodes WHERE status = 'completed')::int AS items_completed,
  (SELECT count(*) FROM cyclium_episodes WHERE attempt <> 1)::int AS attempts_past_first,
  (SELECT count(*) FROM cyclium_episode_steps)::int AS steps,
  (SELECT count(DISTINCT episode_id) FROM cyclium_episode_steps)::int AS episodes_with_steps,
  (SELECT count(*) FROM cyclium_episodes e
    WHERE e.status = 'completed' AND e.attempt = 1 AND e.lease_until IS NULL
      AND NOT EXISTS (SELECT 1 FROM cyclium_work_claims w
                       WHERE w.dedupe_key = 'episode:' || e.id::text
                         AND (w.state <> 'done' OR w.attempt <> 1)))::int AS claims_done_once,
  (SELECT count(*) FROM cyclium_trigger_requests)::int AS trigger_requests`;

export async function runBurst(context: BurstContext): Promise<BurstResult> {
  const { server, config, log } = context;
  const url = await server.createDatabase(context.database);
  await cycliumSystem.install(url);
  const role: BurstRole = {
    kind: "burst",
    url,
    label: "burst",
    size: config.size,
    slots: config.slots,
    via: config.via,
    ...(config.snapshotAtSeconds === undefined
      ? {}
      : { snapshotAtSeconds: config.snapshotAtSeconds }),
  };
  const deadline = Date.now() + config.deadlineSeconds * 1000;
  const worker = new WorkerProcess(role);
  const client = new pg.Client({ connectionString: url });
  client.on("error", (err) => log(`bench connection lost: ${err.message}`));
  let sampler: NodeJS.Timeout | undefined;
  let bus: PgBus | undefined;
  try {
    await client.connect();
    const ready = await withDeadline(worker.next("burstReady"), deadline, "worker start");
    const pid = ready.pid;
    let latest: BurstProgress = ready.progress;
    const before = await readProcMemory(pid);
    const result: BurstResult = {
      config,
      delivery:
        config.via === "bus"
          ? `published on the bus (PgBus NOTIFY wire format, ${PUBLISH_BATCH} per statement)`
          : "fired through the worker's ActorHost (trigger type event, 16 in flight)",
      peakRss: 0,
      rssBefore: before?.rss ?? latest.rss,
      hwmBefore: before?.hwm ?? latest.rss,
      maxSampledRss: 0,
      maxHeapUsed: 0,
      maxExternal: 0,
      maxQueued: 0,
      publishSeconds: null,
      deliveredSeconds: null,
      acceptedSeconds: null,
      drainSeconds: null,
      episodesPerSecond: null,
      episodesPerSecondAfterAccept: null,
      final: null,
      tally: null,
      usage: null,
      database: {},
      samples: [],
      problems: [],
    };
    const startedAt = performance.now();
    const elapsed = () => (performance.now() - startedAt) / 1000;
    worker.onMessage((message: ChildMessage) => {
      if (message.type === "burstProgress") {
        latest = message.progress;
        result.maxHeapUsed = Math.max(result.maxHeapUsed, latest.heapUsed);
        result.maxExternal = Math.max(result.maxExternal, latest.external);
        result.maxQueued = Math.max(result.maxQueued, latest.queued);
        if (result.deliveredSeconds === null && latest.received >= config.size) {
          result.deliveredSeconds = elapsed();
        }
      }
      if (message.type === "burstFired") result.publishSeconds = message.ms / 1000;
    });
    sampler = setInterval(() => {
      void readProcMemory(pid).then((memory) => {
        const rss = memory?.rss ?? latest.rss;
        result.maxSampledRss = Math.max(result.maxSampledRss, rss);
        result.samples.push({
          t: Number(elapsed().toFixed(2)),
          rss,
          heapUsed: latest.heapUsed,
          queued: latest.queued,
          completed: latest.completed,
        });
      });
    }, SAMPLE_MS);

    log(
      `burst of ${config.size.toLocaleString("en-US")} events, ${config.via === "bus" ? "published on the bus" : "fired through the ActorHost"}; RSS before ${mb(result.rssBefore)} MB`,
    );
    worker.send({ type: "go" });
    if (config.via === "bus") {
      bus = await PgBus.start({ db: client, connection: url, cleanup: false });
      await publishBurst(client, bus, config.size, deadline);
      result.publishSeconds = elapsed();
      // Our own listener also received the burst: close it now rather than keep decoding.
      await bus.close();
      bus = undefined;
      log(`published in ${result.publishSeconds.toFixed(1)} s`);
    }

    const failure = worker.next("failed").then((message) => {
      throw new Error(`burst worker failed: ${message.message}`);
    });
    failure.catch(() => undefined);
    let nextLog = 0;
    let completedAtLastLog = -1;
    for (;;) {
      if (Date.now() > deadline) {
        // Reported with the figures so far rather than thrown away.
        return await timedOut(result, client, pid, latest, worker, log);
      }
      if (result.acceptedSeconds === null) {
        const { rows } = await client.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM cyclium_episodes",
        );
        if ((rows[0]?.n ?? 0) >= config.size) {
          result.acceptedSeconds = elapsed();
          log(`accepted (${config.size} episode rows) in ${result.acceptedSeconds.toFixed(1)} s`);
        }
      }
      if (latest.completed + latest.failed >= config.size) {
        result.drainSeconds = elapsed();
        break;
      }
      if (elapsed() >= nextLog) {
        nextLog += 10;
        log(
          `t=${elapsed().toFixed(0)} s: received ${latest.received}, queued ${latest.queued}, ` +
            `running ${latest.running}, completed ${latest.completed}, ` +
            `RSS ${mb(latest.rss)} MB, heap ${mb(latest.heapUsed)}/${mb(latest.heapTotal)} MB, ` +
            `external ${mb(latest.external)} MB`,
        );
        // No progress for 10 s: what the worker's connections are doing.
        if (latest.completed === completedAtLastLog) log(`stalled: ${await activity(client)}`);
        completedAtLastLog = latest.completed;
      }
      await Promise.race([sleep(POLL_MS), failure]);
    }
    result.acceptedSeconds ??= result.drainSeconds;
    const end = await readProcMemory(pid);
    result.peakRss = end?.hwm ?? Math.max(result.maxSampledRss, latest.rss);
    clearInterval(sampler);
    sampler = undefined;
    log(
      `drained in ${result.drainSeconds.toFixed(1)} s; peak RSS ${mb(result.peakRss)} MB; stopping the worker`,
    );
    const stopping = worker.next("burstStopped");
    worker.send({ type: "stop" });
    const stopped = await withDeadline(stopping, deadline, "worker stop");
    await withDeadline(worker.exited, deadline, "worker exit");
    result.final = stopped.progress;
    result.tally = stopped.tally;
    result.usage = stopped.usage;
    const { rows } = await client.query<Record<string, number>>(CHECK_SQL);
    result.database = rows[0] ?? {};
    result.episodesPerSecond = config.size / result.drainSeconds;
    const afterAccept = result.drainSeconds - result.acceptedSeconds;
    result.episodesPerSecondAfterAccept =
      afterAccept > 1
        ? (config.size - completedAt(result, result.acceptedSeconds)) / afterAccept
        : null;
    result.problems = problemsOf(result);
    return result;
  } finally {
    clearInterval(sampler);
    await bus?.close().catch(() => undefined);
    worker.kill();
    await client.end().catch(() => undefined);
  }
}

/** The deadline passed mid-drain: the figures so far, the worker killed, the rows' states. */
async function timedOut(
  result: BurstResult,
  client: pg.Client,
  pid: number,
  latest: BurstProgress,
  worker: WorkerProcess,
  log: (message: string) => void,
): Promise<BurstResult> {
  const end = await readProcMemory(pid);
  result.peakRss = end?.hwm ?? Math.max(result.maxSampledRss, latest.rss);
  result.final = latest;
  // A graceful stop would hand ~the whole queue over first; the run is over anyway.
  worker.kill();
  await worker.exited;
  const { rows } = await client.query<{ status: string; n: number }>(
    "SELECT status, count(*)::int AS n FROM cyclium_episodes GROUP BY status",
  );
  result.database = Object.fromEntries(rows.map((row) => [row.status, row.n]));
  result.problems = [
    `deadline of ${result.config.deadlineSeconds} s passed with ${latest.completed} of ${result.config.size} completed (episode states ${JSON.stringify(result.database)})`,
  ];
  log(result.problems[0] ?? "");
  return result;
}

/** The burst database's backends, by state, wait event and query (a stall's diagnosis). */
async function activity(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ state: string; wait: string; query: string; n: number }>(
    `SELECT coalesce(state, '') AS state, coalesce(wait_event_type || ':' || wait_event, '') AS wait,
            left(regexp_replace(query, '\\s+', ' ', 'g'), 80) AS query, count(*)::int AS n
       FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid()
      GROUP BY 1, 2, 3 ORDER BY n DESC`,
  );
  return rows.map((r) => `${r.n}× ${r.state} ${r.wait} ${r.query}`).join(" | ");
}

/**
 * Publishes the burst as PgBus would, event by event, but PUBLISH_BATCH NOTIFYs per statement:
 * `inlineNotification` gives each event's exact wire message (fresh id, topic, payload).
 */
async function publishBurst(client: pg.Client, bus: PgBus, size: number, deadline: number) {
  for (let first = 0; first < size; first += PUBLISH_BATCH) {
    if (Date.now() > deadline) throw new Error("burst deadline passed while publishing");
    const payloads: string[] = [];
    let channel = "";
    for (let item = first; item < Math.min(size, first + PUBLISH_BATCH); item += 1) {
      const message = bus.inlineNotification(BURST_TOPIC, payloadOf(item));
      if (message === undefined) throw new Error("a burst event is too large to travel inline");
      channel = message.channel;
      payloads.push(message.payload);
    }
    await client.query("SELECT count(pg_notify($1, p)) FROM unnest($2::text[]) AS p", [
      channel,
      payloads,
    ]);
  }
}

/** Completed episodes at `seconds` into the burst, from the samples (0 before the first). */
function completedAt(result: BurstResult, seconds: number): number {
  let completed = 0;
  for (const sample of result.samples) {
    if (sample.t > seconds) break;
    completed = sample.completed;
  }
  return completed;
}

function problemsOf(result: BurstResult): string[] {
  const { size } = result.config;
  const problems: string[] = [];
  const expect = (name: string, value: number | undefined, expected: number) => {
    if (value !== expected) problems.push(`${name} = ${String(value)}, expected ${expected}`);
  };
  const db = result.database;
  expect("episodes", db.episodes, size);
  expect("completed episodes", db.completed, size);
  expect("pending or running episodes", db.unfinished, 0);
  expect("distinct items completed", db.items_completed, size);
  expect("episodes past attempt 1", db.attempts_past_first, 0);
  expect("step journal rows", db.steps, size);
  expect("episodes with a step row", db.episodes_with_steps, size);
  expect("claims done at attempt 1", db.claims_done_once, size);
  const tally = result.tally;
  if (tally === null) problems.push("the worker reported no per-item tally");
  else {
    expect("items whose strategy ran once", tally.once, size);
    if (tally.more > 0 || tally.never > 0) {
      problems.push(
        `strategy ran more than once for ${tally.more} item(s), never for ${tally.never}: ${JSON.stringify(tally.examples)}`,
      );
    }
    expect("items stepped more than once", tally.steppedMore, 0);
  }
  expect("failed episodes (telemetry)", result.final?.failed, 0);
  return problems;
}

async function withDeadline<T>(work: Promise<T>, deadline: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`burst deadline passed during ${what}`)),
      Math.max(0, deadline - Date.now()),
    );
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function mb(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(0);
}
