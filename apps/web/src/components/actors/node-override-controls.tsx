"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { mutationErrorMessage } from "@/lib/error-message";
import type { TRouterOutputs } from "@/trpc/router-types";
import { useTRPC } from "@/trpc/trpc-react-provider";

type TLimitRow = TRouterOutputs["modes"]["cluster"]["limitRows"][number];

/** The same range the server's zod schema and the table's CHECK enforce. */
const MIN_LIMIT = 1;
const MAX_LIMIT = 10_000;

function useRefreshModes() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.modes.pathKey() });
}

/**
 * An actor's maxConcurrentEpisodes on one node (or `*`): empty means the definition's (shown as
 * the placeholder). Enter or leaving the field saves a changed value; the node applies it within
 * a second, without a restart.
 */
export function LimitInput({
  target,
  actorId,
  stored,
  defined,
  canOperate,
}: {
  target: string;
  actorId: string;
  stored: TLimitRow | undefined;
  /** The actor definition's limit, when the console knows the actor. */
  defined: number | undefined;
  canOperate: boolean;
}) {
  const trpc = useTRPC();
  const refresh = useRefreshModes();
  const set = useMutation(trpc.modes.setLimit.mutationOptions({ onSuccess: refresh }));
  const clear = useMutation(trpc.modes.clearLimit.mutationOptions({ onSuccess: refresh }));
  const saved = stored === undefined ? "" : String(stored.maxConcurrentEpisodes);
  const [draft, setDraft] = useState(saved);
  useEffect(() => setDraft(saved), [saved]);
  const value = draft.trim() === "" ? null : Number(draft);
  const invalid =
    value !== null && (!Number.isInteger(value) || value < MIN_LIMIT || value > MAX_LIMIT);
  const failure = set.error ?? clear.error;
  if (!canOperate) {
    return stored ? (
      <span className="note">max {stored.maxConcurrentEpisodes}</span>
    ) : defined !== undefined ? (
      <span className="note">max {defined}</span>
    ) : null;
  }
  const save = () => {
    if (invalid || draft === saved) return;
    if (value === null) clear.mutate({ targetNode: target, actorId });
    else set.mutate({ targetNode: target, actorId, maxConcurrentEpisodes: value });
  };
  return (
    <label
      className="limit-field note"
      title={failure ? mutationErrorMessage(failure) : undefined}
      // "max" stays beside its field when a phone card's line wraps.
      style={{ whiteSpace: "nowrap" }}
    >
      max{" "}
      <input
        className="input"
        type="number"
        inputMode="numeric"
        min={MIN_LIMIT}
        max={MAX_LIMIT}
        step={1}
        value={draft}
        placeholder={defined === undefined ? "default" : String(defined)}
        aria-label={`${target} max concurrent episodes for ${actorId}`}
        aria-invalid={invalid || failure !== null}
        data-testid={`limit-${target}-${actorId}`}
        data-overridden={stored !== undefined}
        disabled={set.isPending || clear.isPending}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={save}
        onKeyDown={(event) => {
          if (event.key === "Enter") save();
          if (event.key === "Escape") setDraft(saved);
        }}
        style={{ width: "6.5ch" }}
      />
      {invalid ? <span role="alert"> 1-10,000</span> : null}
    </label>
  );
}

/** Removes every mode and limit override addressed to this node (one audited command). */
export function ClearNodeOverridesButton({
  target,
  count,
}: {
  target: string;
  /** How many rows it would remove: the button shows only when there are some. */
  count: number;
}) {
  const trpc = useTRPC();
  const refresh = useRefreshModes();
  const clear = useMutation(trpc.modes.clearNode.mutationOptions({ onSuccess: refresh }));
  if (count === 0) return null;
  return (
    <div>
      <ConfirmButton
        label={`Clear ${count === 1 ? "its override" : `all ${count} overrides`}`}
        confirmLabel="Yes, clear all"
        pendingLabel="Clearing…"
        pending={clear.isPending}
        onConfirm={() => clear.mutate({ targetNode: target })}
        testId={`clear-node-${target}`}
        title="Removes every mode and limit override set for exactly this target; '*' rows stay"
      />
      {clear.error ? (
        <span className="note inline-error" role="alert">
          {mutationErrorMessage(clear.error)}
        </span>
      ) : null}
    </div>
  );
}
