"use client";

import { useState } from "react";

/** Copies a one-time secret; says so for two seconds, or tells the admin to select it instead. */
export function CopyButton({ text }: { text: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => setState("copied"),
      () => setState("failed"),
    );
    setTimeout(() => setState("idle"), 2_000);
  };
  return (
    <button type="button" className="button" onClick={copy}>
      {state === "copied" ? "Copied" : state === "failed" ? "Select and copy" : "Copy"}
    </button>
  );
}
