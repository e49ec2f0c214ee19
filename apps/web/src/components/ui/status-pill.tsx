/**
 * One pill for every status the console shows. The tone is chosen from the word itself, so an
 * episode's `failed`, a claim's `failed` and a firing's `failed` all read the same way.
 */
const TONES: Record<string, "ok" | "warn" | "danger" | "info" | "muted" | "brand"> = {
  completed: "ok",
  done: "ok",
  ok: "ok",
  active: "warn",
  started: "ok",
  pending: "warn",
  retrying: "warn",
  blocked: "warn",
  paused: "warn",
  lapsed: "warn",
  refused: "warn",
  running: "info",
  waiting: "brand",
  claimed: "info",
  failed: "danger",
  error: "danger",
  expired: "danger",
  critical: "danger",
  warning: "warn",
  info: "info",
  cancelled: "muted",
  cleared: "muted",
  archived: "muted",
  full: "info",
  trigger_only: "brand",
  disabled: "danger",
};

export function StatusPill({ status, label }: { status: string; label?: string }) {
  return (
    <span className="status-pill" data-tone={TONES[status] ?? "muted"} data-status={status}>
      <span className="status-pill-dot" aria-hidden="true" />
      {label ?? status.replaceAll("_", " ")}
    </span>
  );
}
