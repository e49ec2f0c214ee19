import { z } from "zod";

/**
 * One line of a process's history (JSONL), in the Jepsen manner: client operations as `invoke`
 * followed by `ok` (it happened), `fail` (it certainly did not) or `info` (unknown: a timeout or a
 * lost connection, it may or may not have happened), plus what the node saw happen to episodes
 * and claims. `t` is real time in ms since the epoch (see `realNow`), `proc` is
 * `{identity}#{pid}` so a restarted worker with the same identity is told apart.
 */
const base = { t: z.number(), proc: z.string() };

const ZClientType = z.enum(["invoke", "ok", "fail", "info"]);
export type TClientType = z.infer<typeof ZClientType>;

export const ZHistoryRecord = z.discriminatedUnion("op", [
  // A fire of an actor's expectation: `key` is the operation's idempotency key (one logical fire,
  // however many tries), `try` numbers the tries of a retried fire.
  z.object({
    ...base,
    op: z.literal("fire"),
    type: ZClientType,
    key: z.string(),
    actor: z.string(),
    try: z.number().int(),
    episodeId: z.string().optional(),
    deduped: z.boolean().optional(),
    error: z.string().optional(),
  }),
  // A bus event published by the writer (scenario 6): `key` names the logical event.
  z.object({
    ...base,
    op: z.literal("publish"),
    type: ZClientType,
    key: z.string(),
    eventId: z.string().optional(),
    error: z.string().optional(),
  }),
  // A strategy run began (`init`) on this process; `attempt` is the episode's run number.
  z.object({
    ...base,
    op: z.literal("run"),
    episodeId: z.string(),
    attempt: z.number().int(),
    recovered: z.boolean(),
  }),
  // A strategy step began (`invoke`) or computed its result (`ok`); the journal write follows.
  z.object({
    ...base,
    op: z.literal("step"),
    type: z.enum(["invoke", "ok"]),
    episodeId: z.string(),
    attempt: z.number().int(),
    stepNo: z.number().int(),
  }),
  // The strategy's AbortSignal fired: the claim was lost or lapsed, or the node stopped.
  z.object({ ...base, op: z.literal("abort"), episodeId: z.string(), reason: z.string() }),
  // Claim and episode telemetry as emitted by core (SPEC section 9).
  z.object({
    ...base,
    op: z.literal("claim"),
    event: z.string(),
    key: z.string(),
    attempt: z.number().int().optional(),
  }),
  z.object({
    ...base,
    op: z.literal("episode"),
    event: z.string(),
    episodeId: z.string(),
    write: z.string().optional(),
    attempt: z.number().int().optional(),
  }),
  // An insert that lost its dedupe race: another node (or an earlier fire) created the episode.
  z.object({ ...base, op: z.literal("dedupe"), key: z.string() }),
  z.object({
    ...base,
    op: z.literal("sweep"),
    found: z.number(),
    claimed: z.number(),
    restarted: z.number(),
    failed: z.number(),
  }),
  // A bus probe received (scenario 4: the bus listens again after a database restart).
  z.object({ ...base, op: z.literal("probe"), id: z.string() }),
  // A strategy step parked its episode in a durable wait (scenario 12, SPEC 17).
  z.object({
    ...base,
    op: z.literal("wait"),
    episodeId: z.string(),
    attempt: z.number().int(),
    stepNo: z.number().int(),
  }),
  // A node's life: `ready` carries how far its wall clock is from real time (scenario 7's skew).
  z.object({ ...base, op: z.literal("node"), event: z.string(), skewMs: z.number().optional() }),
  // The orchestrator's faults (Jepsen's "nemesis"): what it did to which process, and when.
  // `queued`: episodes the target held in its queue at the fault (scenarios 8-10); `replacement`:
  // the identity a killed worker came back under when it was not its own; `seed`: scenario 10's.
  z.object({
    ...base,
    op: z.literal("nemesis"),
    event: z.enum([
      "kill",
      "pause",
      "resume",
      "partition",
      "heal",
      "pg-stop",
      "pg-start",
      "terminate",
      "burst",
      "seed",
    ]),
    target: z.string().optional(),
    queued: z.number().int().optional(),
    replacement: z.string().optional(),
    seed: z.number().int().optional(),
  }),
]);

export type THistoryRecord = z.infer<typeof ZHistoryRecord>;

/** A record before the writer stamps `t` and `proc` on it. */
export type THistoryEntry = THistoryRecord extends infer R
  ? R extends THistoryRecord
    ? Omit<R, "t" | "proc">
    : never
  : never;

/**
 * Real time, immune to the `Date` offset scenario 7 injects: `performance.timeOrigin` is taken by
 * Node itself at process start, before any preload can patch `Date`.
 */
export function realNow(): number {
  return performance.timeOrigin + performance.now();
}
