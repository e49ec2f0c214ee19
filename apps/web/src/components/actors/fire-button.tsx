"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRef, useState } from "react";
import { newClickIntentKey } from "@/lib/click-intent-key";
import { useInputEditor } from "@/components/input-form/input-editor";
import { InputForm } from "@/components/input-form/input-form";
import { useInputSchema } from "@/components/input-form/use-input-schema";
import { useTRPC } from "@/trpc/trpc-react-provider";
import { FireTimingFields, useFireTiming } from "./fire-timing-fields";

interface TFireTarget {
  actorId: string;
  expectationId: string;
  testId: string;
}

/**
 * The open form: typed fields from the expectation's input schema, pre-filled with its example,
 * above the raw JSON. A value the schema refuses is marked beside its field and not sent; the
 * server checks the zod schema again and its issues land beside the fields too.
 */
function FireForm({
  target,
  schema,
  intent,
  onFired,
  onCancel,
}: {
  target: TFireTarget;
  schema: { jsonSchema: unknown; example?: unknown; note: string | null } | undefined;
  intent: React.RefObject<string | null>;
  onFired: (result: { episodeId: string; created: boolean }) => void;
  onCancel: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const editor = useInputEditor({
    initial: schema?.example ?? {},
    jsonSchema: schema?.jsonSchema ?? null,
  });
  const timing = useFireTiming();
  const fire = useMutation(
    trpc.actors.fire.mutationOptions({
      onSuccess: (result) => {
        intent.current = null;
        onFired(result);
        void queryClient.invalidateQueries({ queryKey: trpc.episodes.pathKey() });
      },
    }),
  );
  return (
    <InputForm
      editor={editor}
      testId={target.testId}
      className="fire-form"
      note={schema?.note ?? null}
      request={fire}
      labels={{
        submit: timing.when === "now" ? "Fire now" : "Schedule",
        pending: "Firing…",
        invalid: "Fix the input first",
      }}
      onSubmit={(input) => {
        if (timing.problem !== null) return;
        intent.current ??= newClickIntentKey();
        fire.mutate({
          actorId: target.actorId,
          expectationId: target.expectationId,
          idempotencyKey: intent.current,
          input,
          ...timing.timing,
        });
      }}
      onCancel={onCancel}
    >
      <FireTimingFields testId={target.testId} state={timing} />
    </InputForm>
  );
}

/**
 * Fires one expectation with an input. The idempotency key belongs to the click intent: made
 * when the operator opens the form, reused by any repeat (a double click, a retry after a
 * network error), and dropped once the fire succeeded, so one intent creates one episode
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
  const intent = useRef<string | null>(null);
  const [open, setOpen] = useState(false);
  const [last, setLast] = useState<{ episodeId: string; created: boolean } | null>(null);
  const schemas = useInputSchema(actorId, expectationId);
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
  if (schemas.isPending) {
    return <span className="note">Loading the input schema…</span>;
  }
  return (
    <FireForm
      target={{ actorId, expectationId, testId }}
      schema={schemas.schema}
      intent={intent}
      onFired={(result) => {
        setOpen(false);
        setLast(result);
      }}
      onCancel={() => {
        intent.current = null;
        setOpen(false);
      }}
    />
  );
}
