"use client";

import { useEffect, useState } from "react";
import { Icon } from "@/components/icons/icon";

/**
 * A long value in a table cell (a dedupe key, a node id, an error): on a desktop it is cut with
 * an ellipsis where its column ends (one line, or `lines` lines for prose) so it cannot push the
 * last columns out of view, with the whole value in its tooltip and a copy button over its end
 * on hover or focus (table-fit.css; the column takes `cell-fill` for its minimum width). A
 * phone's card shows it as the `className` styles it (e.g. `cell-truncate`), no copy button.
 */
export function TruncatedText({
  value,
  what,
  mono,
  lines,
  hint,
  className,
}: {
  value: string;
  /** What the value is, for the copy button's name: "Copy dedupe key". */
  what: string;
  mono?: boolean;
  lines?: 2;
  /** A line under the value in its tooltip, saying how to read it. */
  hint?: string;
  className?: string;
}) {
  const classes = ["truncated-text", mono ? "mono" : "", className ?? ""];
  return (
    <span className="truncated" data-lines={lines}>
      <span
        className={classes.filter(Boolean).join(" ")}
        title={hint ? `${value}\n${hint}` : value}
      >
        {value}
      </span>
      <CopyValueButton value={value} what={what} />
    </span>
  );
}

/** A small icon button that copies `value`, and says so (check mark, name) for two seconds. */
export function CopyValueButton({ value, what }: { value: string; what: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), 2_000);
    return () => clearTimeout(timer);
  }, [state]);
  const label =
    state === "copied" ? `Copied ${what}` : state === "failed" ? "Select and copy" : `Copy ${what}`;
  return (
    <button
      type="button"
      className="copy-value"
      aria-label={label}
      title={label}
      data-state={state}
      onClick={() => {
        navigator.clipboard.writeText(value).then(
          () => setState("copied"),
          () => setState("failed"),
        );
      }}
    >
      <Icon name={state === "copied" ? "check" : "copy"} size={14} />
    </button>
  );
}
