import type { ReactNode } from "react";

export function PageHeader({
  title,
  summary,
  actions,
}: {
  title: string;
  summary: string;
  actions?: ReactNode;
}) {
  return (
    <div className="page-header">
      <div>
        <h1 className="page-title">{title}</h1>
        <p className="page-summary">{summary}</p>
      </div>
      {actions ? <div className="page-actions">{actions}</div> : null}
    </div>
  );
}
