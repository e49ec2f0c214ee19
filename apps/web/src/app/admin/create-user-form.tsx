"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { ZCreateUserInput } from "@/server/trpc/routers/admin.schema";
import { useTRPC } from "@/trpc/trpc-react-provider";
import styles from "./admin.module.css";
import { FormError } from "./form-error";
import { RoleSelect } from "./role-select";
import { useCheckedFormSubmit } from "./use-checked-form-submit";
import { formText } from "@/lib/form-text";

export function CreateUserForm({ onCreated }: { onCreated: () => Promise<void> }) {
  const trpc = useTRPC();
  const [created, setCreated] = useState<string | null>(null);
  const create = useMutation(
    trpc.admin.users.create.mutationOptions({
      onSuccess: async (user) => {
        setCreated(user.email);
        await onCreated();
      },
    }),
  );
  const { submit, invalid } = useCheckedFormSubmit({
    schema: ZCreateUserInput,
    read: (data) => ({
      email: formText(data, "email"),
      name: formText(data, "name"),
      password: formText(data, "password"),
      role: formText(data, "role"),
    }),
    mutation: create,
    onStart: () => setCreated(null),
  });

  return (
    <form className={styles.inlineForm} onSubmit={submit} aria-label="Add a user">
      <div className={styles.formTitle}>Add a user</div>
      <div className={styles.formRow}>
        <input name="name" placeholder="Name" aria-label="Name" required />
        <input
          name="email"
          type="email"
          placeholder="email@company.com"
          aria-label="Email"
          required
        />
        <input
          name="password"
          type="password"
          placeholder="Initial password (12+ characters)"
          aria-label="Initial password"
          autoComplete="new-password"
          required
        />
        <RoleSelect label="Role" />
        <button type="submit" className={`button ${styles.primary}`} disabled={create.isPending}>
          {create.isPending ? "Adding…" : "Add user"}
        </button>
      </div>
      <FormError invalid={invalid} error={create.error} testId="create-user-error" />
      {created ? (
        <div className={styles.formOk} role="status">
          Added {created}. Share the initial password with them over a private channel.
        </div>
      ) : null}
    </form>
  );
}
