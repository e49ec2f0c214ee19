"use client";

import { useQuery } from "@tanstack/react-query";
import { StatusPill } from "@/components/ui/status-pill";
import { TimeAgo } from "@/components/ui/time-ago";
import { useTRPC } from "@/trpc/trpc-react-provider";
import { ErrorMessage } from "./episode-error";

const OUTCOME_MEANS: Record<string, string> = {
  failed: "the run ended in an error",
  orphaned: "its node stopped mid-run; recovery took it over",
};

/**
 * Every attempt that did not complete, oldest first, each collapsible: class, message (a
 * ZodError's issues as lines), when, on which node, and the stack the strategy threw (collapsed
 * on its own: it is the episode's data, what the user's code threw; the console's own errors
 * never reach the browser). A retry clears the episode's error; these stay.
 */
export function AttemptsCard({
  episodeId,
  attempt,
  refreshMs,
}: {
  episodeId: string;
  attempt: number;
  refreshMs: number | false;
}) {
  const trpc = useTRPC();
  const attempts = useQuery({
    ...trpc.attempts.list.queryOptions({ id: episodeId }),
    refetchInterval: refreshMs,
  });
  const items = attempts.data ?? [];
  return (
    <section className="card" data-testid="attempts-card">
      <div className="card-header">
        Attempts
        <span className="note">
          now attempt {attempt}
          {items.length > 0 ? ` · ${items.length} did not complete` : ""}
        </span>
      </div>
      {attempts.isError ? (
        <div className="card-body inline-error">Could not load the attempts.</div>
      ) : items.length === 0 ? (
        <div className="card-body note" data-testid="attempts-empty">
          {attempts.isPending ? "Loading…" : "No failed or recovered attempt recorded."}
        </div>
      ) : (
        <ol className="attempt-timeline" data-testid="attempt-timeline">
          {items.map((item, index) => (
            <li key={item.id} data-testid={`attempt-${item.attempt}`}>
              <details open={index === items.length - 1}>
                <summary>
                  <span>Attempt {item.attempt}</span> <StatusPill status={item.outcome} />{" "}
                  <strong className="mono">{item.errorClass}</strong>
                  <span className="note">
                    {" "}
                    · <TimeAgo iso={item.insertedAt} /> · on{" "}
                    <span className="mono">{item.node ?? "?"}</span>
                  </span>
                </summary>
                <div className="attempt-body">
                  <p className="note">
                    {item.outcome}: {OUTCOME_MEANS[item.outcome] ?? item.outcome}.
                  </p>
                  <ErrorMessage
                    message={item.errorMessage}
                    testId={`attempt-${item.attempt}-issues`}
                  />
                  {item.errorStack ? (
                    <details className="attempt-stack">
                      <summary>Stack trace (from the strategy)</summary>
                      <pre className="json-block" data-testid={`attempt-${item.attempt}-stack`}>
                        {item.errorStack}
                      </pre>
                    </details>
                  ) : null}
                </div>
              </details>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
