"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { mutationErrorMessage } from "@/lib/error-message";
import { useEnvInput } from "@/lib/url-state";
import { useTRPC } from "@/trpc/trpc-react-provider";

/** Fire, pause and resume one trigger of the env being inspected. */
export function TriggerActions({ name, paused }: { name: string; paused: boolean }) {
  const trpc = useTRPC();
  const env = useEnvInput();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.triggers.pathKey() });
  const pause = useMutation(trpc.triggers.pause.mutationOptions({ onSuccess: refresh }));
  const resume = useMutation(trpc.triggers.resume.mutationOptions({ onSuccess: refresh }));
  const fire = useMutation(trpc.triggers.fire.mutationOptions({ onSuccess: refresh }));
  const failure = pause.error ?? resume.error ?? fire.error;
  return (
    <span className="mode-cell">
      <ConfirmButton
        label="Fire"
        confirmLabel="Fire now?"
        pendingLabel="Firing…"
        tone="primary"
        title={
          paused
            ? "Fire once now; pausing stops the schedule, not an operator"
            : "Fan out to every subscriber now"
        }
        testId={`trigger-fire-${name}`}
        pending={fire.isPending}
        onConfirm={() => fire.mutate({ env, name })}
      />
      {paused ? (
        <ConfirmButton
          label="Resume"
          pendingLabel="Resuming…"
          confirm={false}
          testId={`trigger-resume-${name}`}
          pending={resume.isPending}
          onConfirm={() => resume.mutate({ env, name })}
        />
      ) : (
        <ConfirmButton
          label="Pause"
          confirmLabel="Pause on every node?"
          pendingLabel="Pausing…"
          tone="danger"
          testId={`trigger-pause-${name}`}
          pending={pause.isPending}
          onConfirm={() => pause.mutate({ env, name })}
        />
      )}
      {failure ? <span className="inline-error">{mutationErrorMessage(failure)}</span> : null}
      {fire.data && !fire.isPending ? (
        <span className="inline-ok">
          {`Started ${fire.data.fired} workflow${fire.data.fired === 1 ? "" : "s"}`}
        </span>
      ) : null}
    </span>
  );
}
