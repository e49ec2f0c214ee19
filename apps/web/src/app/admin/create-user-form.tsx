"use client";

import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ROLES } from "@/server/auth/principal";
import { ZCreateUserInput } from "@/server/trpc/routers/admin.schema";
import { useTRPC } from "@/trpc/trpc-react-provider";
import styles from "./admin.module.css";
import { mutationErrorMessage } from "./mutation-error";
import { formText } from "@/lib/form-text";

export function CreateUserForm({ onCreated }: { onCreated: () => Promise<void> }) {
  const trpc = useTRPC();
  const [created, setCreated] = useState<string | null>(null);
  // The server's schema, checked here first so a typo gets its message without a round trip.
  const [invalid, setInvalid] = useState<string | null>(null);
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
    create.reset();
    const input = ZCreateUserInput.safeParse({
      email: formText(data, "email"),
      name: formText(data, "name"),
      password: formText(data, "password"),
      role: formText(data, "role"),
    });
    if (!input.success) {
      setInvalid(input.error.issues.map((issue) => issue.message).join(" "));
      return;
    }
    setInvalid(null);
    create.mutate(input.data, { onSuccess: () => form.reset() });
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
      {invalid || create.error ? (
        <div className={styles.formError} role="alert" data-testid="create-user-error">
          {invalid ?? mutationErrorMessage(create.error)}
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
