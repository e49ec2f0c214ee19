import { EmptyState } from "@/components/ui/empty-state";
import { JsonBlock } from "@/components/ui/json-block";
import { TimeAgo } from "@/components/ui/time-ago";
import { formatCount } from "@/lib/format-count";
import { plural } from "@/lib/plural";
import type { TEpisodeStepView as TEpisodeStep } from "@/trpc/router-types";

/**
 * The step journal (SPEC section 2): every step of every attempt, oldest first, with its usage.
 * Attempts are grouped so a retry or a recovery restart reads as a new run of the same episode.
 */
export function StepTimeline({ steps, status }: { steps: TEpisodeStep[]; status: string }) {
  if (steps.length === 0) {
    return (
      <EmptyState icon="clock" title="No steps yet" testId="steps-empty">
        {status === "pending"
          ? "The episode waits for a worker to claim it; its steps appear here as they run."
          : "This episode ended without journaling a step."}
      </EmptyState>
    );
  }
  const attempts = [...new Set(steps.map((step) => step.attempt))];
  return (
    <div data-testid="step-timeline">
      {attempts.map((attempt) => (
        <section key={attempt} aria-label={`Attempt ${attempt}`}>
          {attempts.length > 1 ? <div className="timeline-attempt">Attempt {attempt}</div> : null}
          <ol className="timeline">
            {steps
              .filter((step) => step.attempt === attempt)
              .map((step) => (
                <li key={step.id} className="timeline-step" data-outcome={step.outcome}>
                  <span className="timeline-marker">{step.stepNo}</span>
                  <div>
                    <div className="timeline-head">
                      <strong className="mono">{step.outcome}</strong>
                      <span className="timeline-meta">
                        {formatCount(step.durationMs)} ms · {plural(step.turns, "turn")} ·{" "}
                        {formatCount(step.tokens)} {step.tokens === 1 ? "token" : "tokens"}
                        {step.node ? ` · ${step.node}` : ""}
                      </span>
                      <span className="timeline-meta">
                        <TimeAgo iso={step.insertedAt} />
                      </span>
                    </div>
                    {step.data !== null && step.data !== undefined ? (
                      <details className="timeline-data">
                        <summary>Step data</summary>
                        <JsonBlock value={step.data} />
                      </details>
                    ) : null}
                  </div>
                </li>
              ))}
          </ol>
        </section>
      ))}
    </div>
  );
}
