import Link from "next/link";
import type { TEpisodeStatusCounts } from "@/server/trpc/routers/overview.schema";
import { formatCount } from "@/lib/format-count";

type TStatus = Exclude<keyof TEpisodeStatusCounts, "total" | "capped">;

const STATUS_CARDS: readonly { status: TStatus; label: string; hint: string }[] = [
  { status: "pending", label: "Pending", hint: "Waiting for a slot or a worker" },
  { status: "running", label: "Running", hint: "Executing on a node now" },
  { status: "waiting", label: "Waiting", hint: "Asleep or waiting for a signal, no slot held" },
  { status: "completed", label: "Completed", hint: "Finished successfully" },
  { status: "failed", label: "Failed", hint: "Ended with an error" },
  { status: "cancelled", label: "Cancelled", hint: "Stopped by an operator or shed" },
];

export function EpisodeStatusCards({ counts }: { counts: TEpisodeStatusCounts }) {
  return (
    <div className="status-cards" aria-live="polite">
      {STATUS_CARDS.map(({ status, label, hint }) => {
        const value = counts[status];
        // Counts stop at a cap (see count-episodes-by-status.ts): say "at least".
        const shown = `${formatCount(value)}${counts.capped.includes(status) ? "+" : ""}`;
        return (
          <Link
            key={status}
            href={`/episodes?status=${status}`}
            className="status-card"
            data-status={status}
            data-empty={value === 0}
            data-testid={`episode-count-${status}`}
            aria-label={`${label}: ${shown} episodes`}
            // The hint is the description, drawn from data-hint by CSS: the visible text of the
            // link ("Completed 3") must lie inside its name (WCAG 2.5.3, axe
            // label-content-name-mismatch), which a hint in the link's text broke.
            aria-describedby={`episode-hint-${status}`}
          >
            <span className="status-card-label">
              <span className="status-dot" aria-hidden="true" />
              {label}
            </span>{" "}
            {/* The space makes the visible text "Completed 3", two words axe finds in the name;
                without it axe reads "Completed3" and reports label-content-name-mismatch. */}
            <span className="status-card-value">{shown}</span>
            <span className="status-card-hint" id={`episode-hint-${status}`} data-hint={hint} />
          </Link>
        );
      })}
    </div>
  );
}
