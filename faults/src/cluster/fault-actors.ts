import { defineActor, type ActorDefinition } from "@cyclium/core/actors";
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
} as const;

export const WORK_EXPECTATION = "work";
export const PING_TOPIC = "faults.ping";
/** Workers record this topic's events: after a database restart they must arrive again. */
export const PROBE_TOPIC = "faults.probe";

/**
 * Six per actor and node: with two busy actors that is twelve episodes, each renewing its claim
 * every lease/3 and journaling every step, against a pool of 16 connections. More slots only
 * queue on the pool of a 2-core machine, where a queued renew eats into the lease.
 */
const SLOTS = 6;

export function faultActors(history: HistoryWriter, node: string): ActorDefinition[] {
  const strategy = recordedStrategy(history, node);
  return [
    defineActor({
      identifier: ACTORS.restart,
      maxConcurrentEpisodes: SLOTS,
      expectations: [
        { id: WORK_EXPECTATION, strategy, trigger: { manual: true }, recoveryPolicy: "restart" },
      ],
    }),
    defineActor({
      identifier: ACTORS.fail,
      maxConcurrentEpisodes: SLOTS,
      expectations: [
        { id: WORK_EXPECTATION, strategy, trigger: { manual: true }, recoveryPolicy: "fail" },
      ],
    }),
    defineActor({
      identifier: ACTORS.event,
      maxConcurrentEpisodes: SLOTS,
      expectations: [
        { id: "on_ping", strategy, trigger: { event: PING_TOPIC }, recoveryPolicy: "restart" },
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
        },
      ],
    }),
  ];
}
