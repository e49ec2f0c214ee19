"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { formatCount } from "@/lib/format-count";
import { mutationErrorMessage, queryErrorMessage } from "@/lib/error-message";
import type { TEpisodeFilterInput } from "@/server/trpc/routers/episodes.schema";
import type { TRouterOutputs } from "@/trpc/router-types";
import { useTRPC } from "@/trpc/trpc-react-provider";

type TCount = TRouterOutputs["episodes"]["count"];
type TOutcome = TRouterOutputs["episodes"]["bulkRetry"];
type TCommand = "retry" | "cancel" | "archive";

const COMMANDS: Record<
  TCommand,
  { label: string; verb: string; done: string; applies: string; tone: string }
> = {
  retry: {
    label: "Retry",
    verb: "Retry",
    done: "retried",
    applies: "failed or cancelled",
    tone: "button-primary",
  },
  cancel: {
    label: "Cancel",
    verb: "Cancel",
    done: "cancelled",
    applies: "pending or running",
    tone: "button-danger",
  },
  archive: {
    label: "Archive",
    verb: "Archive",
    done: "archived",
    applies: "finished and not archived",
    tone: "",
  },
};

/** "1,234" or "~120,000": a count past the exact bound is the planner's estimate. */
export function countText(count: TCount): string {
  return count.kind === "exact" ? formatCount(count.count) : `~${formatCount(count.count)}`;
}

function outcomeText(outcome: TOutcome): string {
  const done = COMMANDS[outcome.command].done;
  const parts = [`${formatCount(outcome.changed)} ${done}`];
  if (outcome.conflict > 0) parts.push(`${formatCount(outcome.conflict)} had changed status`);
  if (outcome.notFound > 0) parts.push(`${formatCount(outcome.notFound)} were gone`);
  return `${parts.join(", ")} (${formatCount(outcome.matched)} matched, in ${formatCount(outcome.batches)} batches).`;
}

/** The preview and confirmation of one bulk command, in a modal dialog. */
function BulkDialog({
  command,
  filter,
  onClose,
}: {
  command: TCommand;
  filter: TEpisodeFilterInput;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const spec = COMMANDS[command];
  const preview = useQuery(trpc.episodes.bulkPreview.queryOptions({ ...filter, command }));
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: trpc.episodes.pathKey() });
  const retry = useMutation(trpc.episodes.bulkRetry.mutationOptions({ onSuccess }));
  const cancel = useMutation(trpc.episodes.bulkCancel.mutationOptions({ onSuccess }));
  const archive = useMutation(trpc.episodes.bulkArchive.mutationOptions({ onSuccess }));
  const mutation = { retry, cancel, archive }[command];
  const titleId = `bulk-${command}-title`;
  return (
    <dialog
      ref={(node) => {
        if (node !== null && !node.open) node.showModal();
      }}
      className="bulk-dialog"
      aria-labelledby={titleId}
      data-testid="bulk-dialog"
      onClose={onClose}
      onCancel={(event) => {
        // Escape while the command runs would hide its outcome; the server finishes it anyway.
        if (mutation.isPending) event.preventDefault();
      }}
    >
      <div className="bulk-dialog-body">
        <h2 id={titleId} className="section-title">
          {spec.verb} every matching episode
        </h2>
        {mutation.data ? (
          <p role="status" data-testid="bulk-outcome">
            Done: {outcomeText(mutation.data)} The audit log has the command.
          </p>
        ) : (
          <>
            <p data-testid="bulk-preview" aria-live="polite">
              {preview.isPending
                ? "Counting the episodes it applies to…"
                : preview.isError
                  ? queryErrorMessage(preview.error)
                  : `${countText(preview.data)} matching episodes are ${spec.applies}: ${
                      preview.data.count === 1 ? "it" : "they"
                    } will be ${spec.done}. Other matches are left alone.`}
            </p>
            <p className="note">
              Runs on the server in batches of 500 over the whole search, including episodes not on
              this page; each changes as if done one by one.
            </p>
          </>
        )}
        {mutation.isError ? (
          <p className="inline-error" role="alert">
            {mutationErrorMessage(mutation.error)} Batches done before the error stay done.
          </p>
        ) : null}
        <div className="bulk-dialog-actions">
          {mutation.data === undefined ? (
            <button
              type="button"
              className={`button button-small ${spec.tone}`}
              data-testid="bulk-confirm"
              disabled={
                mutation.isPending || preview.data === undefined || preview.data.count === 0
              }
              onClick={() => mutation.mutate(filter)}
            >
              {mutation.isPending
                ? `${spec.verb} running…`
                : preview.data === undefined
                  ? spec.verb
                  : `${spec.verb} ${countText(preview.data)} episodes`}
            </button>
          ) : null}
          <form method="dialog">
            <button type="submit" className="button button-small" disabled={mutation.isPending}>
              {/* Not "Cancel": beside "Cancel 12 episodes" that would be ambiguous. */}
              {mutation.data ? "Close" : "Not now"}
            </button>
          </form>
        </div>
      </div>
    </dialog>
  );
}

/**
 * The list's real total for its filter (exact, or ~estimated past 10,000) and, for operators,
 * "select all N matching" then retry / cancel / archive over the whole search, on the server.
 */
export function EpisodeMatchBar({
  filter,
  canOperate,
  refetchInterval,
}: {
  filter: TEpisodeFilterInput;
  canOperate: boolean;
  refetchInterval: number | false;
}) {
  const trpc = useTRPC();
  const total = useQuery({ ...trpc.episodes.count.queryOptions(filter), refetchInterval });
  const [selected, setSelected] = useState(false);
  const [command, setCommand] = useState<TCommand | null>(null);
  const selectButton = useRef<HTMLButtonElement>(null);
  const filterKey = JSON.stringify(filter);
  const [selectedFor, setSelectedFor] = useState(filterKey);
  // A selection belongs to the search it was made for.
  if (selected && selectedFor !== filterKey) setSelected(false);
  if (total.isError) return null;
  const count = total.data;
  return (
    <div className="match-bar" data-testid="episode-match-bar">
      <p className="match-bar-total" aria-live="polite" data-testid="episode-total">
        {count === undefined ? (
          "Counting…"
        ) : count.kind === "exact" ? (
          <>
            <strong>{formatCount(count.count)}</strong> matching{" "}
            {count.count === 1 ? "episode" : "episodes"}
          </>
        ) : (
          <>
            <strong>~{formatCount(count.count)}</strong> matching episodes{" "}
            <span className="note" title={`Exact up to ${formatCount(count.exactUpTo)}`}>
              (estimated)
            </span>
          </>
        )}
      </p>
      {canOperate && count !== undefined && count.count > 0 ? (
        selected ? (
          <div className="match-bar-actions" role="group" aria-label="Bulk actions">
            <span>All {countText(count)} selected:</span>
            {(Object.keys(COMMANDS) as TCommand[]).map((key) => (
              <button
                key={key}
                type="button"
                className="button button-small"
                data-testid={`bulk-${key}`}
                onClick={() => setCommand(key)}
              >
                {COMMANDS[key].label}…
              </button>
            ))}
            <button
              type="button"
              className="button button-small button-ghost"
              onClick={() => {
                setSelected(false);
                selectButton.current?.focus();
              }}
            >
              Clear selection
            </button>
          </div>
        ) : (
          <button
            ref={selectButton}
            type="button"
            className="button button-small"
            data-testid="bulk-select-all"
            onClick={() => {
              setSelected(true);
              setSelectedFor(filterKey);
            }}
          >
            Select all {countText(count)} matching
          </button>
        )
      ) : null}
      {command !== null ? (
        <BulkDialog command={command} filter={filter} onClose={() => setCommand(null)} />
      ) : null}
    </div>
  );
}
