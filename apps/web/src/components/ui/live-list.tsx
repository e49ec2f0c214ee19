"use client";

import type { ReactNode } from "react";
import { LiveIndicator } from "@/components/overview/live-indicator";
import { PageHeader } from "@/components/ui/page-header";
import { ErrorCallout, LoadingRows, StaleCallout } from "@/components/ui/query-state";
import { getConsolePage, type TConsolePageId } from "@/components/shell/console-pages";

/**
 * The frame every live console page shares: header with the live indicator, then loading,
 * error (with retry) or the content, and a warning when refreshes fail over shown data.
 */
export function LivePage<T>({
  pageId,
  query,
  refreshMs,
  what,
  filters,
  actions,
  children,
}: {
  pageId: TConsolePageId;
  query: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined };
  refreshMs: number;
  what: string;
  filters?: ReactNode;
  actions?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  const page = getConsolePage(pageId);
  return (
    <>
      <PageHeader
        title={page.label}
        summary={page.summary}
        actions={
          <>
            {actions}
            <LiveIndicator
              state={query.isError ? "error" : query.isPending ? "loading" : "live"}
              refreshMs={refreshMs}
            />
          </>
        }
      />
      {filters}
      {query.isError && query.data !== undefined ? <StaleCallout error={query.error} /> : null}
      {query.data !== undefined ? (
        children(query.data)
      ) : query.isError ? (
        <ErrorCallout error={query.error} what={what} />
      ) : (
        <LoadingRows label={`Loading ${what}`} />
      )}
    </>
  );
}

export function Tile({
  label,
  value,
  hint,
  alert,
  testId,
}: {
  label: string;
  value: ReactNode;
  hint?: string;
  alert?: boolean;
  testId?: string;
}) {
  return (
    <div className="tile" data-alert={alert ? "true" : undefined} data-testid={testId}>
      <div className="tile-label">{label}</div>
      <div className="tile-value">{value}</div>
      {hint ? <div className="tile-hint">{hint}</div> : null}
    </div>
  );
}
