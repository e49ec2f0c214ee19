"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { InputEditor, useInputEditor } from "@/components/actors/input-form/input-editor";
import { mutationErrorMessage } from "@/lib/error-message";
import { inputIssuesOf } from "@/lib/input-issues";
import type { TEpisodeDetailView as TEpisodeDetail } from "@/trpc/router-types";
import { useTRPC } from "@/trpc/trpc-react-provider";

function RetryForm({ episode, onDone }: { episode: TEpisodeDetail; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const schemas = useQuery({ ...trpc.actors.inputSchemas.queryOptions(), staleTime: Infinity });
  const schema = schemas.data?.find(
    (entry) => entry.actorId === episode.actorId && entry.expectationId === episode.expectationId,
  );
  // Pre-filled with the input the failed attempt ran with.
  const editor = useInputEditor({ initial: episode.input, jsonSchema: schema?.jsonSchema ?? null });
  const retry = useMutation(
    trpc.attempts.retryWithInput.mutationOptions({
      onSuccess: () => {
        onDone();
        void queryClient.invalidateQueries({ queryKey: trpc.episodes.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.attempts.pathKey() });
      },
    }),
  );
  const testId = "retry-input";
  return (
    <div className="fire-form retry-form" data-testid={`${testId}-form`}>
      <InputEditor
        editor={editor}
        testId={testId}
        note={schema?.note ?? null}
        serverIssues={inputIssuesOf(retry.error)}
      />
      {retry.isError ? (
        <span className="inline-error">{mutationErrorMessage(retry.error)}</span>
      ) : null}
      <span className="mode-cell">
        <button
          type="button"
          className="button button-small button-primary"
          data-testid={`${testId}-submit`}
          disabled={!editor.valid || retry.isPending}
          onClick={() => {
            if (editor.parsed.kind === "invalid" || !editor.valid) return;
            retry.mutate({ id: episode.id, input: editor.parsed.value });
          }}
        >
          {retry.isPending ? "Retrying…" : "Retry with this input"}
        </button>
        <button
          type="button"
          className="button button-small button-ghost"
          disabled={retry.isPending}
          onClick={onDone}
        >
          Cancel
        </button>
      </span>
    </div>
  );
}

/**
 * Retry with edited input: the form of the expectation's input schema, pre-filled with the
 * episode's input; checked here and again by the server against the schema before the episode
 * runs again as its next attempt (audited).
 */
export function RetryWithInput({ episode }: { episode: TEpisodeDetail }) {
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <button
        type="button"
        className="button button-small"
        data-testid="episode-retry-edit"
        title="Edit the input, then run it again as its next attempt"
        onClick={() => setOpen(true)}
      >
        Retry with edited input…
      </button>
    );
  }
  return (
    <section className="card" data-testid="retry-with-input">
      <div className="card-header">Retry with edited input</div>
      <div className="card-body">
        <RetryForm episode={episode} onDone={() => setOpen(false)} />
      </div>
    </section>
  );
}
