"use client";

import { useQuery } from "@tanstack/react-query";
import { useRefetchInterval } from "@/lib/live/use-refetch-interval";
import type { TRouterOutputs } from "@/trpc/router-types";
import { useTRPC } from "@/trpc/trpc-react-provider";

export type TWaitReason = TRouterOutputs["episodes"]["waitReasons"][string];
type TWaitCode = TWaitReason["code"];
type TRequestReason = NonNullable<
  TRouterOutputs["triggerRequests"]["list"]["items"][number]["pendingReason"]
>;

/** How often the list and the page re-ask (a pushed episode event refreshes sooner). */
const WAIT_REFRESH_MS = 5_000;

/** A few words for a list row; the sentence is the badge's title and the page's callout. */
export function waitLabel(code: TWaitCode): string {
  switch (code) {
    case "no_live_nodes":
      return "no live node";
    case "no_full_nodes":
      return "no full-mode node";
    case "no_full_nodes_in_env":
      return "no node for its env";
    case "no_full_nodes_for_stack":
      return "no node for its stack";
    case "actor_not_full":
      return "held by mode";
    case "scheduled":
      return "scheduled";
    case "concurrency_limited":
      return "limit full";
    case "rate_limited":
      return "rate limited";
    case "waiting_for_poll":
      return "next poll";
    case "not_picked_up":
      return "not picked up";
    case "queue_owner_gone":
      return "queue's node gone";
    case "slots_full":
      return "slots full";
    case "starting":
      return "starting";
    case "claimed":
      return "claimed";
    case "waiting":
      return "waiting";
    default: {
      const unknown: never = code;
      return String(unknown);
    }
  }
}

/** Reasons that say something holds the episode (shown in the warning tone). */
function blocks(code: TWaitCode): boolean {
  return !["scheduled", "waiting_for_poll", "starting", "claimed", "waiting"].includes(code);
}

export function WaitBadge({ reason }: { reason: TWaitReason | TRequestReason }) {
  const position =
    "queue" in reason && reason.queue && reason.code === "slots_full"
      ? ` · #${reason.queue.position}`
      : "";
  return (
    <span
      className="pill pill-mode"
      data-mode={blocks(reason.code) ? "paused" : undefined}
      data-code={reason.code}
      data-testid="wait-badge"
      title={reason.message}
    >
      {waitLabel(reason.code)}
      {position}
    </span>
  );
}

/** Wait reasons of the pending episodes among `ids` (one request for the page), id -> reason. */
export function useWaitReasons(ids: string[]): Record<string, TWaitReason> {
  const trpc = useTRPC();
  const refetchInterval = useRefetchInterval(WAIT_REFRESH_MS);
  const reasons = useQuery({
    ...trpc.episodes.waitReasons.queryOptions({ ids }),
    enabled: ids.length > 0,
    refetchInterval,
  });
  return reasons.data ?? {};
}

/** The episode page's "Why it waits" for a pending episode. */
export function WaitCallout({ episodeId }: { episodeId: string }) {
  const reason = useWaitReasons([episodeId])[episodeId];
  if (reason === undefined) return null;
  const queue = reason.queue;
  return (
    <div
      className={`callout${blocks(reason.code) ? " callout-warning" : ""}`}
      role="status"
      data-testid="wait-callout"
      data-code={reason.code}
    >
      <strong>Why it waits: </strong>
      {reason.message}
      {queue ? (
        <div className="note">
          Queue on <span className="mono">{queue.node}</span>: number {queue.position} in line,{" "}
          {queue.running} running
          {queue.limit === null ? "" : ` of ${queue.limit} allowed`}.
        </div>
      ) : null}
    </div>
  );
}
