/**
 * mulberry32: a 32-bit seeded generator, enough to draw a fault sequence that `--seed` replays
 * exactly (the same faults, targets, durations and pauses in the same order; what the cluster
 * does in between still depends on the machine).
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export type FaultKind =
  "kill" | "kill-new-identity" | "pause" | "pg-restart" | "terminate" | "burst";

export interface PlannedFault {
  kind: FaultKind;
  /** Index of the worker slot it hits (bursts and restarts hit everyone). */
  worker: number;
  /** Pause before the fault. */
  waitMs: number;
  /** How long a pause or a database outage lasts. */
  durationMs: number;
}

/**
 * Relative weights: bursts most often, since the other faults matter most when queues are full;
 * a PostgreSQL restart least, since each costs every node a reconnect (about 5 s of the run).
 */
const WEIGHTS: readonly [FaultKind, number][] = [
  ["burst", 4],
  ["kill", 2],
  ["kill-new-identity", 1],
  ["pause", 2],
  ["terminate", 2],
  ["pg-restart", 1],
];

function pick(random: () => number): FaultKind {
  const total = WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0);
  let draw = random() * total;
  for (const [kind, weight] of WEIGHTS) {
    draw -= weight;
    if (draw < 0) return kind;
  }
  return "burst";
}

/**
 * The whole fault sequence, drawn up front from the seed so that it can be printed before the
 * run and replayed with `--seed`. The first fault is always a burst: the others then hit workers
 * that hold queues.
 */
export function planFaults(
  seed: number,
  options: { count: number; workers: number; leaseMs: number },
): PlannedFault[] {
  const random = seededRandom(seed);
  return Array.from({ length: options.count }, (_, i) => {
    const kind = i === 0 ? "burst" : pick(random);
    const worker = Math.floor(random() * options.workers);
    const waitMs = 500 + Math.round(random() * 2_500);
    // A pause of 1-3 leases (past the lease: others take over, the paused node's writes are
    // fenced); an outage of 1-3 s.
    const durationMs =
      kind === "pause"
        ? Math.round(options.leaseMs * (1 + random() * 2))
        : 1_000 + Math.round(random() * 2_000);
    return { kind, worker, waitMs, durationMs };
  });
}

export function describeFault(fault: PlannedFault): string {
  const target = fault.kind === "burst" || fault.kind === "pg-restart" ? "" : ` w#${fault.worker}`;
  const lasting =
    fault.kind === "pause" || fault.kind === "pg-restart" ? ` ${fault.durationMs}ms` : "";
  return `${fault.kind}${target}${lasting}`;
}
