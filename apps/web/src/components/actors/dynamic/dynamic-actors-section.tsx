"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { EmptyState } from "@/components/ui/empty-state";
import { SectionHeader } from "@/components/ui/query-state";
import { StatusPill } from "@/components/ui/status-pill";
import { queryErrorMessage } from "@/lib/error-message";
import { useTRPC } from "@/trpc/trpc-react-provider";
import { draftOf, emptyDraft, type TAgentDefinitionView } from "./actor-draft";
import { DynamicActorForm } from "./dynamic-actor-form";
import styles from "./dynamic-actors.module.css";
import { useRefetchInterval } from "@/lib/live/use-refetch-interval";
import { useEnvInput } from "@/lib/url-state";

function summary(definition: TAgentDefinitionView): string {
  if (!Array.isArray(definition.expectations)) return "";
  return definition.expectations
    .map((raw: unknown) => {
      const e = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
      return `${String(e.id)} → ${String(e.strategy)}`;
    })
    .join(", ");
}

/**
 * Dynamic actors (rows of cyclium_agent_definitions): every role sees them, admins create, edit,
 * enable and disable them. Workers reload on each change (bus event), without a restart. Each env
 * has its own: the section shows, and writes to, the env the page looks at.
 */
export function DynamicActorsSection({ canAdmin }: { canAdmin: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const env = useEnvInput();
  const definitions = useQuery({
    ...trpc.agentDefinitions.list.queryOptions({ env }),
    refetchInterval: useRefetchInterval(15_000),
  });
  const strategies = useQuery({
    ...trpc.agentDefinitions.strategies.queryOptions({ env }),
    enabled: canAdmin,
    refetchInterval: useRefetchInterval(15_000),
  });
  const [editing, setEditing] = useState<TAgentDefinitionView | "new" | null>(null);
  const [notice, setNotice] = useState("");
  const invalidate = async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.agentDefinitions.list.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.actors.list.queryKey() }),
    ]);
  };
  const setEnabled = useMutation(
    trpc.agentDefinitions.setEnabled.mutationOptions({ onSettled: invalidate }),
  );
  const names = (strategies.data ?? []).map((strategy) => strategy.name);
  const list = definitions.data ?? [];
  const done = async (message: string) => {
    setEditing(null);
    setNotice(message);
    await invalidate();
  };

  return (
    <section className="section" aria-labelledby="dynamic-actors-heading">
      <SectionHeader
        id="dynamic-actors-heading"
        title={
          <>
            Dynamic actors <span className="count-badge">{list.length}</span>
          </>
        }
        meta="Rows of cyclium_agent_definitions; workers pick up a change within a second, without restart"
      />
      {definitions.error ? (
        <div className="callout callout-error" role="alert">
          {queryErrorMessage(definitions.error)}
        </div>
      ) : null}
      {setEnabled.error ? (
        <div className="callout callout-error" role="alert" data-testid="dynamic-actor-error">
          {queryErrorMessage(setEnabled.error)}
        </div>
      ) : null}
      {notice ? (
        <div className={styles.ok} role="status">
          {notice}
        </div>
      ) : null}
      {list.length === 0 ? (
        <EmptyState icon="person" title="No dynamic actors" testId="dynamic-actors-empty">
          Dynamic actors run strategies the workers registered, without a deploy.
          {canAdmin ? " Create one below." : " An admin can create them here."}
        </EmptyState>
      ) : (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Dynamic actors">
          <table className="table" data-testid="dynamic-actors-table">
            <thead>
              <tr>
                <th scope="col">Actor</th>
                <th scope="col">Expectations</th>
                <th scope="col">Max concurrent</th>
                <th scope="col">Stacks</th>
                {canAdmin ? <th scope="col" aria-label="Actions" /> : null}
              </tr>
            </thead>
            <tbody>
              {list.map((definition) => (
                <tr key={definition.id} data-testid={`dynamic-actor-${definition.identifier}`}>
                  <td>
                    <div className="cell-primary mono">
                      {definition.identifier}{" "}
                      <StatusPill status={definition.enabled ? "enabled" : "disabled"} />
                    </div>
                    {definition.problem ? (
                      <div className={styles.problem}>
                        Skipped by every node: {definition.problem}
                      </div>
                    ) : null}
                  </td>
                  <td className="mono note">{summary(definition)}</td>
                  <td>{definition.maxConcurrentEpisodes}</td>
                  <td>{definition.stacks.length > 0 ? definition.stacks.join(", ") : "all"}</td>
                  {canAdmin ? (
                    <td className={styles.actions}>
                      <button
                        type="button"
                        className="button button-small"
                        onClick={() => setEditing(definition)}
                      >
                        Edit
                      </button>
                      <button
                        type="button"
                        className="button button-small"
                        disabled={setEnabled.isPending}
                        onClick={() =>
                          setEnabled.mutate({
                            env,
                            identifier: definition.identifier,
                            enabled: !definition.enabled,
                          })
                        }
                      >
                        {definition.enabled ? "Disable" : "Enable"}
                      </button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {canAdmin && editing === null ? (
        <button
          type="button"
          className={`button ${styles.newButton}`}
          onClick={() => {
            setNotice("");
            setEditing("new");
          }}
        >
          New dynamic actor
        </button>
      ) : null}
      {canAdmin && editing !== null ? (
        <DynamicActorForm
          key={editing === "new" ? "new" : editing.id}
          initial={editing === "new" ? emptyDraft(names[0] ?? "") : draftOf(editing)}
          editing={editing !== "new"}
          strategies={names}
          onDone={done}
        />
      ) : null}
    </section>
  );
}
