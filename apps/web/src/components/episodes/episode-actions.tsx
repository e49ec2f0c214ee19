"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { mutationErrorMessage } from "@/lib/error-message";
import type { TEpisodeDetailView as TEpisodeDetail } from "@/trpc/router-types";
import { useTRPC } from "@/trpc/trpc-react-provider";

/** Retry, cancel and archive, offered only where the episode's status allows them. */
export function EpisodeActions({ episode }: { episode: TEpisodeDetail }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.episodes.pathKey() });
  const retry = useMutation(trpc.episodes.retry.mutationOptions({ onSuccess: refresh }));
  const cancel = useMutation(trpc.episodes.cancel.mutationOptions({ onSuccess: refresh }));
  const archive = useMutation(trpc.episodes.archive.mutationOptions({ onSuccess: refresh }));
  const open =
    episode.status === "pending" || episode.status === "running" || episode.status === "waiting";
  const retryable = episode.status === "failed" || episode.status === "cancelled";
  const failure = retry.error ?? cancel.error ?? archive.error;
  if (episode.archivedAt !== null) {
    return <span className="note">Archived: kept as history, no actions.</span>;
  }
  return (
    <div className="page-actions">
      {failure ? <span className="inline-error">{mutationErrorMessage(failure)}</span> : null}
      {retryable ? (
        <ConfirmButton
          label="Retry"
          pendingLabel="Retrying…"
          confirm={false}
          tone="primary"
          testId="episode-retry"
          title="Run it again as its next attempt; a worker picks it up"
          pending={retry.isPending}
          onConfirm={() => retry.mutate({ id: episode.id })}
        />
      ) : null}
      {open ? (
        <ConfirmButton
          label="Cancel"
          confirmLabel="Yes, cancel it"
          pendingLabel="Cancelling…"
          tone="danger"
          testId="episode-cancel"
          title="Stop it: a running episode loses its claim and is aborted by its node"
          pending={cancel.isPending}
          onConfirm={() => cancel.mutate({ id: episode.id })}
        />
      ) : null}
      {!open ? (
        <ConfirmButton
          label="Archive"
          confirmLabel="Yes, archive"
          pendingLabel="Archiving…"
          testId="episode-archive"
          title="Hide it from lists and free its dedupe key for new fires"
          pending={archive.isPending}
          onConfirm={() => archive.mutate({ id: episode.id })}
        />
      ) : null}
    </div>
  );
}
