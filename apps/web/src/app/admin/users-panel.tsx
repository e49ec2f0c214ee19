"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ROLES, type TRole } from "@/server/auth/principal";
import { TimeAgo } from "@/components/ui/time-ago";
import { useTRPC } from "@/trpc/trpc-react-provider";
import styles from "./admin.module.css";
import { AdminLeadCell, AdminSection, AdminTable } from "./admin-section";
import { CreateUserForm } from "./create-user-form";

export function UsersPanel({ currentUserId }: { currentUserId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const users = useQuery(trpc.admin.users.list.queryOptions());
  const invalidate = () =>
    queryClient.invalidateQueries({ queryKey: trpc.admin.users.list.queryKey() });
  const setRole = useMutation(trpc.admin.users.setRole.mutationOptions({ onSettled: invalidate }));
  const setDisabled = useMutation(
    trpc.admin.users.setDisabled.mutationOptions({ onSettled: invalidate }),
  );

  return (
    <AdminSection
      titleId="users-title"
      title="Users"
      meta={
        <>
          <strong>{users.data?.filter((user) => user.disabledAt === null).length ?? 0}</strong>{" "}
          active
        </>
      }
      error={setRole.error ?? setDisabled.error}
    >
      <AdminTable
        label="Users"
        testId="users-table"
        columns={["User", "Role", "Last active", "Created"]}
      >
        {(users.data ?? []).map((user) => {
          const self = user.id === currentUserId;
          const disabled = user.disabledAt !== null;
          return (
            <tr key={user.id} data-disabled={disabled} className={styles.userRow}>
              <AdminLeadCell
                name={user.name}
                secondary={user.email}
                secondaryClassName="cell-secondary mono"
              >
                {self ? <span className={styles.you}>you</span> : null}
                {disabled ? <span className={styles.disabledPill}>disabled</span> : null}
              </AdminLeadCell>
              <td data-label="Role">
                <select
                  className={styles.select}
                  aria-label={`Role of ${user.email}`}
                  value={user.role}
                  disabled={self || setRole.isPending}
                  title={self ? "You cannot change your own role" : undefined}
                  onChange={(event) =>
                    setRole.mutate({ userId: user.id, role: event.target.value as TRole })
                  }
                >
                  {ROLES.map((role) => (
                    <option key={role} value={role}>
                      {role}
                    </option>
                  ))}
                </select>
              </td>
              <td className="text-subtle" data-label="Last active">
                <TimeAgo iso={user.lastSeenAt} fallback="never" />
              </td>
              <td className="text-subtle" data-label="Created">
                <TimeAgo iso={user.insertedAt} />
              </td>
              <td className={styles.actions}>
                {self ? null : (
                  <button
                    type="button"
                    className={disabled ? "button" : `button ${styles.danger}`}
                    disabled={setDisabled.isPending}
                    onClick={() => setDisabled.mutate({ userId: user.id, disabled: !disabled })}
                  >
                    {disabled ? "Enable" : "Disable"}
                  </button>
                )}
              </td>
            </tr>
          );
        })}
      </AdminTable>
      <CreateUserForm onCreated={invalidate} />
    </AdminSection>
  );
}
