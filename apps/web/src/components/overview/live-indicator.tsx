const LABELS = {
  live: "Live",
  loading: "Connecting",
  error: "Reconnecting",
} as const;

/** Tells the operator whether the numbers on screen are current. */
export function LiveIndicator({
  state,
  refreshMs,
}: {
  state: keyof typeof LABELS;
  refreshMs: number;
}) {
  return (
    // A status region: a screen reader hears "Reconnecting" when refreshes start failing.
    <span
      role="status"
      aria-live="polite"
      className="live-indicator"
      data-state={state}
      title={`Refreshes every ${refreshMs / 1000} s while this tab is visible`}
      data-testid="live-indicator"
    >
      <span className="live-dot" aria-hidden="true" />
      {LABELS[state]}
      <span className="live-indicator-interval">every {refreshMs / 1000} s</span>
    </span>
  );
}
