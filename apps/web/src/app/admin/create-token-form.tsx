"use client";

import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ROLES } from "@/server/auth/principal";
import { ZCreateApiTokenInput } from "@/server/trpc/routers/admin.schema";
import { useTRPC } from "@/trpc/trpc-react-provider";
import styles from "./admin.module.css";
import { CopyButton } from "./copy-button";
import { mutationErrorMessage } from "./mutation-error";
import { formText } from "@/lib/form-text";

export function CreateTokenForm({ onCreated }: { onCreated: () => Promise<void> }) {
  const trpc = useTRPC();
  const [shown, setShown] = useState<{ name: string; token: string } | null>(null);
  const [invalid, setInvalid] = useState<string | null>(null);
  const create = useMutation(
    trpc.admin.tokens.create.mutationOptions({
      onSuccess: async (result) => {
        setShown({ name: result.apiToken.name, token: result.token });
        await onCreated();
      },
    }),
  );

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setShown(null);
    create.reset();
    const input = ZCreateApiTokenInput.safeParse({
      name: formText(data, "name"),
      role: formText(data, "role"),
      tenants: formText(data, "tenants")
        .split(",")
        .map((tenant) => tenant.trim())
        .filter((tenant) => tenant !== ""),
    });
    if (!input.success) {
      setInvalid(input.error.issues.map((issue) => issue.message).join(" "));
      return;
    }
    setInvalid(null);
    create.mutate(input.data, { onSuccess: () => form.reset() });
  };

  return (
    <form className={styles.inlineForm} onSubmit={submit} aria-label="Create an API token">
      <div className={styles.formRow}>
        <input
          name="name"
          placeholder="Token name, e.g. ci-deploy"
          aria-label="Token name"
          required
        />
        <select name="role" aria-label="Token role" defaultValue="viewer" className={styles.select}>
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {role}
            </option>
          ))}
        </select>
        <input
          name="tenants"
          placeholder="Tenants, e.g. staging, default (empty: all)"
          aria-label="Token tenants"
        />
        <button type="submit" className={`button ${styles.primary}`} disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create token"}
        </button>
      </div>
      {invalid || create.error ? (
        <div className={styles.formError} role="alert" data-testid="create-token-error">
          {invalid ?? mutationErrorMessage(create.error)}
        </div>
      ) : null}
      {shown ? (
        <div className={styles.secret} role="status" data-testid="new-token">
          <div>
            Token <strong>{shown.name}</strong> created. Copy it now: it is shown only this once and
            only its hash is stored.
          </div>
          <div className={styles.secretRow}>
            <code className={styles.secretValue}>{shown.token}</code>
            <CopyButton text={shown.token} />
          </div>
        </div>
      ) : null}
    </form>
  );
}
