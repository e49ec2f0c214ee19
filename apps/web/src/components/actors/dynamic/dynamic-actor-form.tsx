"use client";

import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { queryErrorMessage } from "@/lib/error-message";
import { useEnvInput } from "@/lib/url-state";
import { useTRPC } from "@/trpc/trpc-react-provider";
import styles from "./dynamic-actors.module.css";
import { emptyExpectation, inputOf, type TActorDraft } from "./actor-draft";
import { ExpectationFields } from "./expectation-fields";

/**
 * Creates a dynamic actor, or edits one (`editing`: its identifier is fixed, episodes name the
 * actor by it). The server validates with the loader's own schema and the live workers'
 * strategies; its message names each offending field and is shown as is.
 */
export function DynamicActorForm({
  initial,
  editing,
  strategies,
  onDone,
}: {
  initial: TActorDraft;
  editing: boolean;
  strategies: readonly string[];
  onDone: (message: string) => Promise<void>;
}) {
  const trpc = useTRPC();
  const env = useEnvInput();
  const [draft, setDraft] = useState(initial);
  const create = useMutation(trpc.agentDefinitions.create.mutationOptions());
  const update = useMutation(trpc.agentDefinitions.update.mutationOptions());
  const pending = create.isPending || update.isPending;
  const error = create.error ?? update.error;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    create.reset();
    update.reset();
    const { identifier, ...changes } = inputOf(draft);
    if (editing) {
      update.mutate(
        { env, identifier, changes },
        { onSuccess: () => void onDone(`Saved ${identifier}; workers reload it now.`) },
      );
    } else {
      create.mutate(
        { env, identifier, ...changes },
        { onSuccess: () => void onDone(`Created ${identifier}; workers load it now.`) },
      );
    }
  };

  const setExpectation = (index: number, next: TActorDraft["expectations"][number] | null) =>
    setDraft({
      ...draft,
      expectations: draft.expectations.flatMap((current, i) =>
        i !== index ? [current] : next === null ? [] : [next],
      ),
    });

  return (
    <form
      className={styles.form}
      onSubmit={submit}
      aria-label={editing ? `Edit ${draft.identifier}` : "New dynamic actor"}
      data-testid="dynamic-actor-form"
    >
      <div className={styles.formTitle}>
        {editing ? `Edit ${draft.identifier}` : "New dynamic actor"}
      </div>
      <div className={styles.row}>
        <input
          aria-label="Identifier"
          placeholder="identifier, e.g. nightly_report"
          value={draft.identifier}
          disabled={editing}
          onChange={(event) => setDraft({ ...draft, identifier: event.target.value })}
          required
        />
        <input
          className={styles.narrow}
          aria-label="Max concurrent episodes"
          title="Max concurrent episodes per node"
          type="number"
          min={1}
          value={draft.maxConcurrentEpisodes}
          onChange={(event) => setDraft({ ...draft, maxConcurrentEpisodes: event.target.value })}
          required
        />
        <input
          aria-label="Stacks"
          placeholder="stacks, comma-separated (empty: every stack)"
          value={draft.stacks}
          onChange={(event) => setDraft({ ...draft, stacks: event.target.value })}
        />
        <label className={styles.label}>
          <input
            type="checkbox"
            checked={draft.enabled}
            onChange={(event) => setDraft({ ...draft, enabled: event.target.checked })}
          />{" "}
          enabled
        </label>
      </div>
      {draft.expectations.map((expectation, index) => (
        <ExpectationFields
          key={expectation.key}
          index={index}
          draft={expectation}
          strategies={strategies}
          onChange={(next) => setExpectation(index, next)}
          onRemove={draft.expectations.length > 1 ? () => setExpectation(index, null) : null}
        />
      ))}
      <div className={styles.row}>
        <button
          type="button"
          className="button button-small"
          onClick={() =>
            setDraft({
              ...draft,
              expectations: [...draft.expectations, emptyExpectation(strategies[0] ?? "")],
            })
          }
        >
          Add expectation
        </button>
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? "Saving…" : editing ? "Save" : "Create"}
        </button>
        <button type="button" className="button" onClick={() => void onDone("")}>
          Cancel
        </button>
      </div>
      {error ? (
        <div className={styles.error} role="alert" data-testid="dynamic-actor-error">
          {/* The whole message: it names every offending field (expectations.0.strategy: ...). */}
          {queryErrorMessage(error)}
        </div>
      ) : null}
    </form>
  );
}
