import type { ReactNode } from "react";
import { queryErrorMessage } from "@/lib/error-message";

/** Placeholder rows while a list loads: the page keeps its shape instead of jumping. */
export function LoadingRows({ rows = 6, label }: { rows?: number; label: string }) {
  return (
    <div className="panel loading-rows" aria-busy="true" aria-label={label}>
      {Array.from({ length: rows }, (_, index) => (
        <div key={index} className="loading-row" />
      ))}
    </div>
  );
}

export function ErrorCallout({ error, what }: { error: unknown; what: string }) {
  return (
    <div className="callout callout-error" role="alert" data-testid="query-error">
      <strong>Could not load {what}.</strong> {queryErrorMessage(error)} The page keeps retrying.
    </div>
  );
}

/** Shown above data that is still on screen while refreshes fail. */
export function StaleCallout({ error }: { error: unknown }) {
  return (
    <div className="callout callout-warning" role="status">
      Showing the last data read: {queryErrorMessage(error)} Retrying.
    </div>
  );
}

export function SectionHeader({
  title,
  meta,
  actions,
  id,
}: {
  title: ReactNode;
  meta?: ReactNode;
  actions?: ReactNode;
  id?: string;
}) {
  return (
    <div className="section-header">
      <h2 className="section-title" id={id}>
        {title}
      </h2>
      <div className="section-header-side">
        {meta ? <span className="section-meta">{meta}</span> : null}
        {actions}
      </div>
    </div>
  );
}
