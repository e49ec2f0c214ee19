"use client";

import { useActionState } from "react";
import { signInAction, type TSignInFormState } from "./actions";
import styles from "./sign-in.module.css";

const initialState: TSignInFormState = { error: null, email: "" };

export function SignInForm({ next }: { next: string }) {
  const [state, formAction, pending] = useActionState(signInAction, initialState);
  return (
    <form action={formAction} className={styles.form} noValidate>
      <input type="hidden" name="next" value={next} />
      {state.error ? (
        <div className={styles.error} role="alert" data-testid="sign-in-error">
          {state.error}
        </div>
      ) : null}
      <label className={styles.field}>
        <span>Email</span>
        <input
          name="email"
          type="email"
          autoComplete="username"
          defaultValue={state.email}
          required
          autoFocus
        />
      </label>
      <label className={styles.field}>
        <span>Password</span>
        <input name="password" type="password" autoComplete="current-password" required />
      </label>
      <button type="submit" className={styles.submit} disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
