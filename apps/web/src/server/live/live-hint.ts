import type { BusEvent } from "@cyclium/core/console";

/**
 * What the console's push channel carries: an invalidation hint, never data. The browser maps the
 * topic to the queries it may have changed and refetches those through the ordinary, authorized
 * procedures, so a hint can only tell a viewer that *something* changed (and its ids).
 */
export interface TLiveHint {
  /** A bus topic (`episode.completed`, `finding.raised`, ...) or one of LIVE_CONTROL_TOPICS. */
  topic: string;
  episodeId?: string;
  workflowInstanceId?: string;
  actorId?: string;
  node?: string;
  /** The env the change happened in; absent when the event does not say (then sent to every env). */
  env?: string | null;
  /** On `live.ready` and `live.resync`: whether the cluster's bus feeds this console's stream. */
  pushing?: boolean;
}

/**
 * Not bus topics: `live.ready` opens every stream (and every reconnect, after which the browser
 * refetches what it shows, since events may have been missed meanwhile); `live.resync` replaces a
 * subscriber's queue when it overflowed (it missed hints: refetch everything).
 */
export const LIVE_CONTROL_TOPICS = {
  ready: "live.ready",
  resync: "live.resync",
} as const;

const text = (value: unknown): string | undefined =>
  typeof value === "string" && value.length > 0 ? value : undefined;

/**
 * Reads the ids out of a bus event. Episode events use camelCase (`episodeId`, `sourceEnv`),
 * lifecycle announcements snake_case (`episode_id`, `instance_id`, `env`); both are read.
 */
export function toLiveHint(event: Pick<BusEvent, "topic" | "payload">): TLiveHint {
  const payload: Record<string, unknown> =
    typeof event.payload === "object" && event.payload !== null
      ? (event.payload as Record<string, unknown>)
      : {};
  const hint: TLiveHint = { topic: event.topic };
  const episodeId = text(payload.episodeId) ?? text(payload.episode_id);
  const workflowInstanceId = text(payload.workflowInstanceId) ?? text(payload.instance_id);
  const actorId = text(payload.actorId) ?? text(payload.actor_id);
  const node = text(payload.node);
  if (episodeId !== undefined) hint.episodeId = episodeId;
  if (workflowInstanceId !== undefined) hint.workflowInstanceId = workflowInstanceId;
  if (actorId !== undefined) hint.actorId = actorId;
  if (node !== undefined) hint.node = node;
  const envKey = "sourceEnv" in payload ? "sourceEnv" : "env" in payload ? "env" : undefined;
  if (envKey !== undefined) {
    const env = payload[envKey];
    if (env === null || typeof env === "string") hint.env = env;
  }
  return hint;
}

/** Whether a subscriber looking at `env` wants this hint (a hint of unknown env goes to all). */
export function hintMatchesEnv(hint: TLiveHint, env: string | null): boolean {
  return hint.env === undefined || hint.env === env;
}
