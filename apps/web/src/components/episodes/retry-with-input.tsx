"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useInputEditor } from "@/components/input-form/input-editor";
import { InputForm } from "@/components/input-form/input-form";
import { useInputSchema } from "@/components/input-form/use-input-schema";
import type { TEpisodeDetailView as TEpisodeDetail } from "@/trpc/router-types";
import { useTRPC } from "@/trpc/trpc-react-provider";

function RetryForm({ episode, onDone }: { episode: TEpisodeDetail; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { schema } = useInputSchema(episode.actorId, episode.expectationId);
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
  return (
    <InputForm
      editor={editor}
      testId="retry-input"
      className="fire-form retry-form"
      note={schema?.note ?? null}
      request={retry}
      labels={{ submit: "Retry with this input", pending: "Retrying…" }}
      onSubmit={(input) => retry.mutate({ id: episode.id, input })}
      onCancel={onDone}
    />
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
