"use client";

import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ROLES, ZRole } from "@/server/auth/principal";
import { useTRPC } from "@/trpc/trpc-react-provider";
import styles from "./admin.module.css";
import { mutationErrorMessage } from "./mutation-error";
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

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setCreated(null);
    create.mutate(
      {
        email: formText(data, "email"),
        name: formText(data, "name"),
        password: formText(data, "password"),
        role: ZRole.catch("viewer").parse(data.get("role")),
      },
      { onSuccess: () => form.reset() },
    );
  };

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
        <select name="role" aria-label="Role" defaultValue="viewer" className={styles.select}>
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {role}
            </option>
          ))}
        </select>
        <button type="submit" className={`button ${styles.primary}`} disabled={create.isPending}>
          {create.isPending ? "Adding…" : "Add user"}
        </button>
      </div>
      {create.error ? (
        <div className={styles.formError} role="alert">
          {mutationErrorMessage(create.error)}
        </div>
      ) : null}
      {created ? (
        <div className={styles.formOk} role="status">
          Added {created}. Share the initial password with them over a private channel.
        </div>
      ) : null}
    </form>
  );
}
