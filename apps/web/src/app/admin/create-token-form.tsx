"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { ZCreateApiTokenInput } from "@/server/trpc/routers/admin.schema";
import { useTRPC } from "@/trpc/trpc-react-provider";
import styles from "./admin.module.css";
import { CopyButton } from "./copy-button";
import { FormError } from "./form-error";
import { RoleSelect } from "./role-select";
import { useCheckedFormSubmit } from "./use-checked-form-submit";
import { formText } from "@/lib/form-text";

export function CreateTokenForm({ onCreated }: { onCreated: () => Promise<void> }) {
  const trpc = useTRPC();
  const [shown, setShown] = useState<{ name: string; token: string } | null>(null);
  const create = useMutation(
    trpc.admin.tokens.create.mutationOptions({
      onSuccess: async (result) => {
        setShown({ name: result.apiToken.name, token: result.token });
        await onCreated();
      },
    }),
  );
  const { submit, invalid } = useCheckedFormSubmit({
    schema: ZCreateApiTokenInput,
    read: (data) => ({
      name: formText(data, "name"),
      role: formText(data, "role"),
      tenants: formText(data, "tenants")
        .split(",")
        .map((tenant) => tenant.trim())
        .filter((tenant) => tenant !== ""),
    }),
    mutation: create,
    onStart: () => setShown(null),
  });

  return (
    <form className={styles.inlineForm} onSubmit={submit} aria-label="Create an API token">
      <div className={styles.formRow}>
        <input
          name="name"
          placeholder="Token name, e.g. ci-deploy"
          aria-label="Token name"
          required
        />
        <RoleSelect label="Token role" />
        <input
          name="tenants"
          placeholder="Tenants, e.g. staging, default (empty: all)"
          aria-label="Token tenants"
        />
        <button type="submit" className={`button ${styles.primary}`} disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create token"}
        </button>
      </div>
      <FormError invalid={invalid} error={create.error} testId="create-token-error" />
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
