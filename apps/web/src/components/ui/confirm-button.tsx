"use client";

import { useEffect, useState } from "react";

/**
 * A button for actions that change state. Destructive ones ask once more in place ("Cancel
 * episode?" → "Yes, cancel") instead of a browser dialog; the question lapses after 5 s.
 */
export function ConfirmButton({
  label,
  confirmLabel,
  pendingLabel,
  onConfirm,
  pending,
  disabled,
  tone = "default",
  confirm = true,
  testId,
  title,
}: {
  label: string;
  confirmLabel?: string;
  pendingLabel: string;
  onConfirm: () => void;
  pending: boolean;
  disabled?: boolean;
  tone?: "default" | "primary" | "danger";
  confirm?: boolean;
  testId?: string;
  title?: string;
}) {
  const [asking, setAsking] = useState(false);
  useEffect(() => {
    if (!asking) return;
    const timer = setTimeout(() => setAsking(false), 5_000);
    return () => clearTimeout(timer);
  }, [asking]);
  const className = `button button-small${tone === "primary" ? " button-primary" : ""}${
    tone === "danger" ? " button-danger" : ""
  }`;
  return (
    <button
      type="button"
      className={className}
      disabled={disabled === true || pending}
      data-testid={testId}
      title={title}
      onClick={() => {
        if (confirm && !asking) {
          setAsking(true);
          return;
        }
        setAsking(false);
        onConfirm();
      }}
    >
      {pending ? pendingLabel : asking ? (confirmLabel ?? `Confirm ${label.toLowerCase()}`) : label}
    </button>
  );
}
