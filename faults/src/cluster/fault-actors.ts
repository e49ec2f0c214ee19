import { defineActor, type ActorDefinition } from "@cyclium/core";
import type { HistoryWriter } from "../history/history-writer";
import { recordedStrategy } from "./recorded-strategy";

/** The actors every process of the cluster runs (the writer trigger-only, the workers full). */
export const ACTORS = {
  /** Orphans are restarted: each fire must end `completed` exactly once. */
  restart: "restarter",
  /** Orphans are failed: each fire ends `completed`, or `failed` with `orphaned`. */
  fail: "failer",
  /** Fires on every `faults.ping` bus event, on every node (scenario 6). */
  event: "pinger",
  /** Fires every minute on every node (scenario 6's cron tick; harmless elsewhere). */
  cron: "ticker",
  /**
   * One episode at a time per node, restart policy, fired locally by manual bursts and by
   * `faults.burst` events (scenarios 8-10): a burst leaves every worker holding a queue.
   */
  queuedRestart: "q-restarter",
  /** Two at a time per node, fail policy, fired locally by manual bursts (scenarios 8-10). */
  queuedFail: "q-failer",
  /**
   * At most LIMITED_GLOBAL running across the cluster (SPEC section 16), restart policy, retried
   * after a short backoff (scenario 11).
   */
  limited: "limited",
} as const;

/** The cluster-wide concurrency limit of the `limited` actor. */
export const LIMITED_GLOBAL = 3;

/** Actors whose orphans are failed (`orphaned`) rather than restarted. */
export const FAIL_POLICY_ACTORS: ReadonlySet<string> = new Set([ACTORS.fail, ACTORS.queuedFail]);
/** Actors fired by bus events; their episodes carry the event's key in their input. */
export const EVENT_ACTORS: ReadonlySet<string> = new Set([ACTORS.event, ACTORS.queuedRestart]);

export const WORK_EXPECTATION = "work";
export const PING_TOPIC = "faults.ping";
/** Bursts of events to the one-slot actor (scenarios 8-10). */
export const BURST_TOPIC = "faults.burst";
/** Workers record this topic's events: after a database restart they must arrive again. */
export const PROBE_TOPIC = "faults.probe";

/**
 * Six per actor and node: with two busy actors that is twelve episodes, each renewing its claim
 * every lease/3 and journaling every step, against a pool of 16 connections. More slots only
 * queue on the pool of a 2-core machine, where a queued renew eats into the lease.
 */
const SLOTS = 6;
/**
 * The queued actors' limits: 1 and 2, as in the issue 18 measurements, so that a burst of a
 * dozen fires leaves ten and more episodes waiting in a worker's memory.
 */
const QUEUED_RESTART_SLOTS = 1;
const QUEUED_FAIL_SLOTS = 2;
/**
 * Scenarios fire up to 1,000 steps an episode and keep some running until a kill: far beyond
 * Cyclium's default budget (12 turns, 120 s), which would end them before the fault.
 */
const LONG_RUNNING = { maxTurns: 1_000_000, maxWallMs: 3_600_000 };

export function faultActors(history: HistoryWriter, node: string): ActorDefinition[] {
  const strategy = recordedStrategy(history, node);
  return [
    defineActor({
      identifier: ACTORS.restart,
      maxConcurrentEpisodes: SLOTS,
      expectations: [
        {
          id: WORK_EXPECTATION,
          strategy,
          trigger: { manual: true },
          recoveryPolicy: "restart",
          budget: LONG_RUNNING,
        },
      ],
    }),
    defineActor({
      identifier: ACTORS.fail,
      maxConcurrentEpisodes: SLOTS,
      expectations: [
        {
          id: WORK_EXPECTATION,
          strategy,
          trigger: { manual: true },
          recoveryPolicy: "fail",
          budget: LONG_RUNNING,
        },
      ],
    }),
    defineActor({
      identifier: ACTORS.event,
      maxConcurrentEpisodes: SLOTS,
      expectations: [
        {
          id: "on_ping",
          strategy,
          trigger: { event: PING_TOPIC },
          recoveryPolicy: "restart",
          budget: LONG_RUNNING,
        },
      ],
    }),
    defineActor({
      identifier: ACTORS.cron,
      maxConcurrentEpisodes: 1,
      expectations: [
        {
          id: "tick",
          strategy,
          trigger: { schedule: "* * * * *", timezone: "UTC" },
          recoveryPolicy: "restart",
          budget: LONG_RUNNING,
        },
      ],
    }),
    defineActor({
      identifier: ACTORS.queuedRestart,
      maxConcurrentEpisodes: QUEUED_RESTART_SLOTS,
      expectations: [
        {
          id: WORK_EXPECTATION,
          strategy,
          trigger: { manual: true },
          recoveryPolicy: "restart",
          budget: LONG_RUNNING,
        },
        {
          id: "on_burst",
          strategy,
          trigger: { event: BURST_TOPIC },
          recoveryPolicy: "restart",
          budget: LONG_RUNNING,
        },
      ],
    }),
    defineActor({
      identifier: ACTORS.limited,
      maxConcurrentEpisodes: SLOTS,
      concurrency: { global: LIMITED_GLOBAL },
      expectations: [
        {
          id: WORK_EXPECTATION,
          strategy,
          trigger: { manual: true },
          recoveryPolicy: "restart",
          // Kills and restarts raise the attempt too: room for both and the planned failure.
          retry: { maxAttempts: 8, backoff: { initialMs: 200, maxMs: 1_000 } },
          budget: LONG_RUNNING,
        },
      ],
    }),
    defineActor({
      identifier: ACTORS.queuedFail,
      maxConcurrentEpisodes: QUEUED_FAIL_SLOTS,
      expectations: [
        {
          id: WORK_EXPECTATION,
          strategy,
          trigger: { manual: true },
          recoveryPolicy: "fail",
          budget: LONG_RUNNING,
        },
      ],
    }),
  ];
}
