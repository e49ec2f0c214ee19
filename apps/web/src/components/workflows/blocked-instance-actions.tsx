"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { StatusPill } from "@/components/ui/status-pill";
import { mutationErrorMessage } from "@/lib/error-message";
import { useTRPC } from "@/trpc/trpc-react-provider";

/**
 * Operator actions on a `blocked` instance (SPEC 12, `pause` failure policy): retry one paused
 * step (a new attempt, a new episode), or resume, accepting every paused step as it is. Shown
 * only to operators; the procedures refuse viewers themselves.
 */
export function BlockedInstanceActions({
  instanceId,
  pausedSteps,
}: {
  instanceId: string;
  pausedSteps: { name: string; attempt: number; error: string | null }[];
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.workflows.pathKey() });
  const resume = useMutation(trpc.workflows.resume.mutationOptions({ onSuccess: refresh }));
  const retryStep = useMutation(trpc.workflows.retryStep.mutationOptions({ onSuccess: refresh }));
  const failure = resume.error ?? retryStep.error;
  return (
    <section className="card" data-testid="blocked-instance-actions">
      <div className="card-header">
        Blocked
        <span className="note">
          a step failed under the pause policy; the instance waits for you
        </span>
      </div>
      <div className="card-body">
        {failure ? <p className="inline-error">{mutationErrorMessage(failure)}</p> : null}
        <ul className="findings-list">
          {pausedSteps.map((step) => (
            <li key={step.name}>
              <StatusPill status="paused" />
              <div>
                <div className="mono">{step.name}</div>
                <div className="note">
                  attempt {step.attempt}
                  {step.error ? ` · ${step.error}` : ""}
                </div>
              </div>
              <ConfirmButton
                label="Retry step"
                pendingLabel="Retrying…"
                confirm={false}
                tone="primary"
                testId={`workflow-retry-step-${step.name}`}
                title="Run this step again as a new attempt (a new episode)"
                pending={retryStep.isPending && retryStep.variables.step === step.name}
                disabled={resume.isPending}
                onConfirm={() => retryStep.mutate({ instanceId, step: step.name })}
              />
            </li>
          ))}
        </ul>
        <div className="page-actions">
          <ConfirmButton
            label="Resume"
            confirmLabel="Yes, accept and resume"
            pendingLabel="Resuming…"
            testId="workflow-resume"
            title="Accept the paused steps as they are and let their dependants start"
            pending={resume.isPending}
            disabled={retryStep.isPending}
            onConfirm={() => resume.mutate({ instanceId })}
          />
        </div>
      </div>
    </section>
  );
}
