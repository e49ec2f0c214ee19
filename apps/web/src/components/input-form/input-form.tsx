"use client";

import { mutationErrorMessage } from "@/lib/error-message";
import { inputIssuesOf } from "@/lib/input-issues";
import { InputEditor, type TInputEditor } from "./input-editor";

/**
 * An expectation's input, edited and sent: the typed fields above the raw JSON (InputEditor),
 * the server's refusal (its zod issues beside the fields, its message below them), then submit
 * and cancel. A value the schema refuses disables submit, so only a JSON object that passes the
 * client's check reaches `onSubmit`; the server checks it again.
 */
export function InputForm({
  editor,
  testId,
  className,
  note,
  request,
  labels,
  onSubmit,
  onCancel,
  children,
}: {
  editor: TInputEditor;
  /** Prefix of every test id in the form: `${testId}-form`, `${testId}-submit`, the fields'. */
  testId: string;
  className: string;
  note: string | null;
  /** The mutation the form sends: its error is shown, while pending both buttons are disabled. */
  request: { isPending: boolean; isError: boolean; error: unknown };
  /** The submit button's text, its text while pending, its title while the input is invalid. */
  labels: { submit: string; pending: string; invalid?: string };
  onSubmit: (input: Record<string, unknown>) => void;
  onCancel: () => void;
  /** More fields below the input (the Fire form's timing). */
  children?: React.ReactNode;
}) {
  return (
    <div className={className} data-testid={`${testId}-form`}>
      <InputEditor
        editor={editor}
        testId={testId}
        note={note}
        serverIssues={inputIssuesOf(request.error)}
      />
      {children}
      {request.isError ? (
        <span className="inline-error">{mutationErrorMessage(request.error)}</span>
      ) : null}
      <span className="mode-cell">
        <button
          type="button"
          className="button button-small button-primary"
          data-testid={`${testId}-submit`}
          disabled={!editor.valid || request.isPending}
          title={editor.valid ? undefined : labels.invalid}
          onClick={() => {
            if (editor.parsed.kind === "invalid" || !editor.valid) return;
            onSubmit(editor.parsed.value);
          }}
        >
          {request.isPending ? labels.pending : labels.submit}
        </button>
        <button
          type="button"
          className="button button-small button-ghost"
          disabled={request.isPending}
          onClick={onCancel}
        >
          Cancel
        </button>
      </span>
    </div>
  );
}
