"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TimeAgo } from "@/components/ui/time-ago";
import { useTRPC } from "@/trpc/trpc-react-provider";
import styles from "./admin.module.css";
import { AdminLeadCell, AdminSection, AdminTable } from "./admin-section";
import { CreateTokenForm } from "./create-token-form";

export function TokensPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const tokens = useQuery(trpc.admin.tokens.list.queryOptions());
  const invalidate = () =>
    queryClient.invalidateQueries({ queryKey: trpc.admin.tokens.list.queryKey() });
  const revoke = useMutation(trpc.admin.tokens.revoke.mutationOptions({ onSettled: invalidate }));
  const list = tokens.data ?? [];

  return (
    <AdminSection
      titleId="tokens-title"
      title="API tokens"
      meta={
        <>
          For REST v1: <code>Authorization: Bearer cyc_…</code>
        </>
      }
      error={revoke.error}
    >
      <CreateTokenForm onCreated={invalidate} />
      {list.length === 0 ? (
        <div className={`panel panel-padded ${styles.emptyNote}`}>
          No API tokens yet. Create one for each script or pipeline, so each can be revoked alone.
        </div>
      ) : (
        <AdminTable
          label="API tokens"
          testId="tokens-table"
          columns={["Token", "Role", "Created", "Last used"]}
        >
          {list.map((token) => {
            const revoked = token.revokedAt !== null;
            return (
              <tr key={token.id} data-revoked={revoked} className={styles.userRow}>
                <AdminLeadCell
                  name={token.name}
                  secondary={<>by {token.createdBy ?? "a deleted user"}</>}
                >
                  {revoked ? <span className={styles.disabledPill}>revoked</span> : null}
                </AdminLeadCell>
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
        </AdminTable>
      )}
    </AdminSection>
  );
}
