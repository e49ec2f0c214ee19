"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRef, useState } from "react";
import { newClickIntentKey } from "@/lib/click-intent-key";
import { mutationErrorMessage } from "@/lib/error-message";
import { useTRPC } from "@/trpc/trpc-react-provider";

function parseInput(
  text: string,
): { kind: "parsed"; value: Record<string, unknown> } | { kind: "invalid" } {
  try {
    const value: unknown = JSON.parse(text.trim() === "" ? "{}" : text);
    if (typeof value !== "object" || value === null || Array.isArray(value))
      return { kind: "invalid" };
    return { kind: "parsed", value: value as Record<string, unknown> };
  } catch {
    return { kind: "invalid" };
  }
}

/**
 * Fires one expectation with an optional JSON input. The idempotency key belongs to the click
 * intent: made when the operator opens the form, reused by any repeat (a double click, a retry
 * after a network error), and dropped once the fire succeeded, so one intent creates one episode
 * whatever the browser sends.
 */
export function FireButton({
  actorId,
  expectationId,
  disabledReason,
}: {
  actorId: string;
  expectationId: string;
  disabledReason: string | null;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const intent = useRef<string | null>(null);
  const [open, setOpen] = useState(false);
  const [input, setInput] = useState("{}");
  const [last, setLast] = useState<{ episodeId: string; created: boolean } | null>(null);
  const fire = useMutation(
    trpc.actors.fire.mutationOptions({
      onSuccess: (result) => {
        intent.current = null;
        setOpen(false);
        setLast({ episodeId: result.episodeId, created: result.created });
        void queryClient.invalidateQueries({ queryKey: trpc.episodes.pathKey() });
      },
    }),
  );
  const parsed = parseInput(input);
  const testId = `fire-${actorId}-${expectationId}`;

  if (!open) {
    return (
      <span className="mode-cell">
        <button
          type="button"
          className="button button-small button-primary"
          data-testid={testId}
          disabled={disabledReason !== null}
          title={disabledReason ?? `Fire ${actorId}/${expectationId} by hand`}
          onClick={() => {
            intent.current = newClickIntentKey();
            fire.reset();
            setOpen(true);
          }}
        >
          Fire…
        </button>
        {last ? (
          <span className="inline-ok" data-testid="fire-result">
            {last.created ? "Created " : "Already created "}
            <Link href={`/episodes/${last.episodeId}`} data-testid="fired-episode-link">
              episode {last.episodeId.slice(0, 8)}
            </Link>
          </span>
        ) : null}
      </span>
    );
  }

  return (
    <div className="fire-form" data-testid={`${testId}-form`}>
      <label className="filter-field">
        <span>Input (JSON object)</span>
        <textarea
          className="input fire-input"
          rows={3}
          spellCheck={false}
          value={input}
          data-testid={`${testId}-input`}
          onChange={(event) => setInput(event.target.value)}
        />
      </label>
      {parsed.kind === "invalid" ? (
        <span className="inline-error">Input must be a JSON object.</span>
      ) : null}
      {fire.isError ? (
        <span className="inline-error">{mutationErrorMessage(fire.error)}</span>
      ) : null}
      <span className="mode-cell">
        <button
          type="button"
          className="button button-small button-primary"
          data-testid={`${testId}-submit`}
          disabled={parsed.kind === "invalid" || fire.isPending}
          onClick={() => {
            if (parsed.kind === "invalid") return;
            intent.current ??= newClickIntentKey();
            fire.mutate({
              actorId,
              expectationId,
              idempotencyKey: intent.current,
              input: parsed.value,
            });
          }}
        >
          {fire.isPending ? "Firing…" : "Fire now"}
        </button>
        <button
          type="button"
          className="button button-small button-ghost"
          disabled={fire.isPending}
          onClick={() => {
            intent.current = null;
            setOpen(false);
          }}
        >
          Cancel
        </button>
      </span>
    </div>
  );
}
