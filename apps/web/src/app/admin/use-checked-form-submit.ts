"use client";

import { type FormEvent, useState } from "react";

/** What a zod schema's safeParse returns, as far as a form reads it. */
type TCheckResult<TInput> =
  | { success: true; data: TInput }
  | { success: false; error: { issues: readonly { message: string }[] } };

/**
 * The submit of an admin form: reads the form's fields, checks them with the server's own zod
 * schema first so a typo gets its message without a round trip, and sends only input that
 * passes; the form is cleared once the server took it. `onStart` clears what the last submit
 * showed. `invalid` is the check's message (null once an input passes).
 */
export function useCheckedFormSubmit<TInput>({
  schema,
  read,
  mutation,
  onStart,
}: {
  schema: { safeParse: (value: unknown) => TCheckResult<TInput> };
  read: (data: FormData) => unknown;
  mutation: {
    reset: () => void;
    mutate: (input: NoInfer<TInput>, options: { onSuccess: () => void }) => void;
  };
  onStart: () => void;
}) {
  const [invalid, setInvalid] = useState<string | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    onStart();
    mutation.reset();
    const input = schema.safeParse(read(data));
    if (!input.success) {
      setInvalid(input.error.issues.map((issue) => issue.message).join(" "));
      return;
    }
    setInvalid(null);
    mutation.mutate(input.data, { onSuccess: () => form.reset() });
  };
  return { submit, invalid };
}
