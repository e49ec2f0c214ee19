"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TimeAgo } from "@/components/ui/time-ago";
import { useTRPC } from "@/trpc/trpc-react-provider";
import styles from "./admin.module.css";
import { CreateTokenForm } from "./create-token-form";
import { mutationErrorMessage } from "./mutation-error";

export function TokensPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const tokens = useQuery(trpc.admin.tokens.list.queryOptions());
  const invalidate = () =>
    queryClient.invalidateQueries({ queryKey: trpc.admin.tokens.list.queryKey() });
  const revoke = useMutation(trpc.admin.tokens.revoke.mutationOptions({ onSettled: invalidate }));
  const list = tokens.data ?? [];

  return (
    <section className="section" aria-labelledby="tokens-title">
      <div className="section-header">
        <h2 className="section-title" id="tokens-title">
          API tokens
        </h2>
        <span className="section-meta">
          For REST v1: <code>Authorization: Bearer cyc_…</code>
        </span>
      </div>
      {revoke.error ? (
        <div className="callout callout-error" role="alert">
          {mutationErrorMessage(revoke.error)}
        </div>
      ) : null}
      <CreateTokenForm onCreated={invalidate} />
      {list.length === 0 ? (
        <div className={`panel panel-padded ${styles.emptyNote}`}>
          No API tokens yet. Create one for each script or pipeline, so each can be revoked alone.
        </div>
      ) : (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="API tokens">
          <table className="table table-cards" data-testid="tokens-table">
            <thead>
              <tr>
                <th>Token</th>
                <th>Role</th>
                <th>Created</th>
                <th>Last used</th>
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {list.map((token) => {
                const revoked = token.revokedAt !== null;
                return (
                  <tr key={token.id} data-revoked={revoked} className={styles.userRow}>
                    <td className="cell-lead">
                      <div className="cell-primary">
                        {token.name}
                        {revoked ? <span className={styles.disabledPill}>revoked</span> : null}
                      </div>
                      <div className="cell-secondary">by {token.createdBy ?? "a deleted user"}</div>
                    </td>
                    <td data-label="Role">
                      <span className="pill pill-muted">{token.role}</span>
                      <span className="text-subtle">
                        {" "}
                        {token.tenants.length === 0 ? "all tenants" : token.tenants.join(", ")}
                      </span>
                    </td>
                    <td className="text-subtle" data-label="Created">
                      <TimeAgo iso={token.insertedAt} />
                    </td>
                    <td className="text-subtle" data-label="Last used">
                      <TimeAgo iso={token.lastUsedAt} fallback="never" />
                    </td>
                    <td className={styles.actions}>
                      {revoked ? null : (
                        <button
                          type="button"
                          className={`button ${styles.danger}`}
                          disabled={revoke.isPending}
                          onClick={() => revoke.mutate({ tokenId: token.id })}
                        >
                          Revoke
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
