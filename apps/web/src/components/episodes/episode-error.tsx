import { readZodIssues } from "./zod-issues";

/**
 * An error message as an operator reads it: a ZodError's issues (the JSON zod 4 puts in its
 * message) become `path: message` lines; anything else is shown as it is.
 */
export function ErrorMessage({ message, testId }: { message: string | null; testId?: string }) {
  if (!message) return null;
  const issues = readZodIssues(message);
  if (issues === null) return <span className="error-message">{message}</span>;
  const prefix = message.slice(0, message.indexOf("[")).trim();
  return (
    <span className="error-message">
      {prefix ? <span>{prefix} </span> : null}
      <span>the input does not match the expectation&apos;s schema:</span>
      <ul className="issue-list" data-testid={testId}>
        {issues.map((issue, index) => (
          <li key={index}>
            <span className="mono">{issue.path === "" ? "(input)" : issue.path}</span>:{" "}
            {issue.message}
          </li>
        ))}
      </ul>
    </span>
  );
}

/** The episode's current error, above its page. */
export function EpisodeErrorCallout({
  errorClass,
  errorMessage,
}: {
  errorClass: string | null;
  errorMessage: string | null;
}) {
  if (!errorClass) return null;
  return (
    <div className="callout callout-error" role="status" data-testid="episode-error">
      <strong className="mono">{errorClass}</strong>
      {errorMessage ? ": " : ""}
      <ErrorMessage message={errorMessage} testId="episode-error-issues" />
    </div>
  );
}
