import { StatusPill } from "@/components/ui/status-pill";
import type { TEpisodeDetailView as TEpisodeDetail } from "@/trpc/router-types";

// What each record's state means for this episode: issue 14 found one failed episode reading
// three ways (episode failed, claim done, request completed) with nothing saying they agree.
const EPISODE_MEANS: Record<string, string> = {
  pending: "waiting for a worker to run it",
  running: "a worker is running it now",
  completed: "its strategy finished it",
  failed: "its last attempt ended in an error (see Attempts); it runs again only if retried",
  cancelled: "stopped by an operator or shed from a full queue; it runs again only if retried",
};
const CLAIM_MEANS: Record<string, string> = {
  claimed: "a node holds the lease and runs it; no other node may",
  done: "released when the run ended, whatever its outcome: done is not success",
  failed: "given up: superseded by a retry, or the run could not start",
  expired: "the lease ran out while its holder was silent; another node may take it over",
};
const REQUEST_MEANS: Record<string, string> = {
  pending: "waiting for a full-mode worker of its stack and env to pick it up",
  claimed: "a worker picked it up and is running the episode",
  completed: "delivered: a worker ran the episode to its end, whatever its outcome",
  expired: "no worker picked it up in time (its TTL); the episode failed as expired",
};

function Line({ what, state, means }: { what: string; state: string; means: string }) {
  return (
    <li>
      <span className="story-what">{what}</span>
      <StatusPill status={state} />
      <span className="note">{means}</span>
    </li>
  );
}

/**
 * One story of the episode across its three records: the episode's status is the outcome; the
 * work claim and the trigger request say how the run was held and delivered, not whether it
 * succeeded. Shown once the episode has ended.
 */
export function FailureStory({ episode }: { episode: TEpisodeDetail }) {
  const latestRequest = episode.triggerRequests.at(-1);
  return (
    <section className="card" data-testid="episode-story">
      <div className="card-header">What the states mean</div>
      <ul className="story-list card-body">
        <Line
          what="Episode"
          state={episode.status}
          means={`the outcome: ${EPISODE_MEANS[episode.status] ?? episode.status}.`}
        />
        {episode.claim ? (
          <Line
            what="Work claim"
            state={episode.claim.state}
            means={`${CLAIM_MEANS[episode.claim.state] ?? episode.claim.state}.`}
          />
        ) : (
          <li>
            <span className="story-what">Work claim</span>
            <span className="note">none: no node has started it under a claim.</span>
          </li>
        )}
        {latestRequest ? (
          <Line
            what="Trigger request"
            state={latestRequest.status}
            means={`${REQUEST_MEANS[latestRequest.status] ?? latestRequest.status}.`}
          />
        ) : (
          <li>
            <span className="story-what">Trigger request</span>
            <span className="note">
              none open: a start consumes its request, and one fired on a full node has none.
            </span>
          </li>
        )}
      </ul>
    </section>
  );
}
