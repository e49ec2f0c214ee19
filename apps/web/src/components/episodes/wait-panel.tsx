"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useInputEditor } from "@/components/input-form/input-editor";
import { InputForm } from "@/components/input-form/input-form";
import { TimeAgo } from "@/components/ui/time-ago";
import type { TRouterOutputs } from "@/trpc/router-types";
import { useTRPC } from "@/trpc/trpc-react-provider";

type TWaitView = TRouterOutputs["episodes"]["wait"];
type TDeclaredSignal = TWaitView["signals"][number];

function SignalForm({
  episodeId,
  signal,
  onDone,
}: {
  episodeId: string;
  signal: TDeclaredSignal;
  onDone: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const editor = useInputEditor({ initial: {}, jsonSchema: signal.jsonSchema });
  const send = useMutation(
    trpc.episodes.signal.mutationOptions({
      onSuccess: () => {
        onDone();
        void queryClient.invalidateQueries({ queryKey: trpc.episodes.pathKey() });
      },
    }),
  );
  return (
    <InputForm
      editor={editor}
      testId={`signal-${signal.name}`}
      className="fire-form"
      note={null}
      request={send}
      labels={{ submit: `Send ${signal.name}`, pending: "Sending…" }}
      onSubmit={(payload) =>
        send.mutate({
          id: episodeId,
          name: signal.name,
          payload,
          // One click, one delivery: a resent request (a retry of the same click) is a duplicate.
          idempotencyKey: `console:${crypto.randomUUID()}`,
        })
      }
      onCancel={onDone}
    />
  );
}

/** What a waiting episode waits for, in a sentence. */
function describeWait(wait: NonNullable<TWaitView["wait"]>) {
  if (wait.kind === "sleep") {
    return (
      <>
        Sleeping since <TimeAgo iso={wait.since} />; wakes <TimeAgo iso={wait.wakeAt} />.
      </>
    );
  }
  return (
    <>
      Waiting for signal <span className="mono">{wait.signal}</span> since{" "}
      <TimeAgo iso={wait.since} />
      {wait.wakeAt === null ? (
        "; no timeout."
      ) : (
        <>
          ; times out <TimeAgo iso={wait.wakeAt} />.
        </>
      )}
    </>
  );
}

/**
 * A waiting episode (SPEC section 17): what it waits for and since when, and for an operator one
 * button per signal its expectation declares, opening a form built from the signal's schema.
 * The server checks the payload again and audits who sent it. Holds no slot: nothing here runs.
 */
export function WaitPanel({
  episodeId,
  canOperate,
  refreshMs,
}: {
  episodeId: string;
  canOperate: boolean;
  refreshMs: number;
}) {
  const trpc = useTRPC();
  const [open, setOpen] = useState<string | null>(null);
  const view = useQuery({
    ...trpc.episodes.wait.queryOptions({ id: episodeId }),
    refetchInterval: refreshMs,
  });
  const wait = view.data?.wait ?? null;
  const signals = view.data?.signals ?? [];
  return (
    <section className="card" data-testid="wait-panel">
      <div className="card-header">Waiting</div>
      <div className="card-body">
        <p data-testid="wait-description">
          {wait === null ? "Waiting (loading what for…)" : describeWait(wait)}
        </p>
        {canOperate && signals.length > 0 ? (
          <div className="page-actions" role="group" aria-label="Signals">
            {signals.map((signal) => (
              <button
                key={signal.name}
                type="button"
                className="button button-small button-primary"
                data-testid={`signal-open-${signal.name}`}
                aria-expanded={open === signal.name}
                onClick={() => setOpen(open === signal.name ? null : signal.name)}
              >
                Send {signal.name}…
              </button>
            ))}
          </div>
        ) : null}
        {signals
          .filter((signal) => canOperate && signal.name === open)
          .map((signal) => (
            <SignalForm
              key={signal.name}
              episodeId={episodeId}
              signal={signal}
              onDone={() => setOpen(null)}
            />
          ))}
      </div>
    </section>
  );
}
