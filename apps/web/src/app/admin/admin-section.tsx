import { mutationErrorMessage } from "./mutation-error";

/**
 * An admin panel's frame: the titled section with its meta line and the last failed mutation's
 * message above the panel's own content.
 */
export function AdminSection({
  titleId,
  title,
  meta,
  error,
  children,
}: {
  titleId: string;
  title: string;
  meta: React.ReactNode;
  error: unknown;
  children: React.ReactNode;
}) {
  return (
    <section className="section" aria-labelledby={titleId}>
      <div className="section-header">
        <h2 className="section-title" id={titleId}>
          {title}
        </h2>
        <span className="section-meta">{meta}</span>
      </div>
      {error ? (
        <div className="callout callout-error" role="alert">
          {mutationErrorMessage(error)}
        </div>
      ) : null}
      {children}
    </section>
  );
}

/** An admin list as a scrollable table of cards: the named columns, then one for the actions. */
export function AdminTable({
  label,
  testId,
  columns,
  children,
}: {
  label: string;
  testId: string;
  columns: readonly string[];
  children: React.ReactNode;
}) {
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label={label}>
      <table className="table table-cards" data-testid={testId}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column}>{column}</th>
            ))}
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A row's first cell: the name with its pills (you, disabled, revoked), and a line under it. */
export function AdminLeadCell({
  name,
  secondary,
  secondaryClassName = "cell-secondary",
  children,
}: {
  name: string;
  secondary: React.ReactNode;
  secondaryClassName?: string;
  children: React.ReactNode;
}) {
  return (
    <td className="cell-lead">
      <div className="cell-primary">
        {name}
        {children}
      </div>
      <div className={secondaryClassName}>{secondary}</div>
    </td>
  );
}
