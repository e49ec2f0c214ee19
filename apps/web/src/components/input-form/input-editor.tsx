"use client";

import { useMemo, useState } from "react";
import { checkFields, formFieldsOf, valueFromText, type TFormField } from "./json-schema-fields";

type TParsed = { kind: "parsed"; value: Record<string, unknown> } | { kind: "invalid" };

function parseInput(text: string): TParsed {
  try {
    const value: unknown = JSON.parse(text.trim() === "" ? "{}" : text);
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return { kind: "invalid" };
    }
    return { kind: "parsed", value: value as Record<string, unknown> };
  } catch {
    return { kind: "invalid" };
  }
}

export interface TInputEditor {
  text: string;
  setText: (text: string) => void;
  parsed: TParsed;
  /** The schema's fields; null when it has none the form can show (raw JSON only). */
  fields: TFormField[] | null;
  /** Field name → message from the client's check; the server's issues are passed separately. */
  fieldErrors: Record<string, string>;
  /** Ready to send: JSON object, and every field passes. */
  valid: boolean;
  setField: (field: TFormField, value: unknown) => void;
}

/**
 * The input being edited: its JSON text is the one source of truth. The fields read their values
 * from it and write back into it, so the form and the raw JSON never disagree.
 */
export function useInputEditor(options: { initial: unknown; jsonSchema: unknown }): TInputEditor {
  const [text, setText] = useState(() => JSON.stringify(options.initial ?? {}, null, 2));
  const fields = useMemo(() => formFieldsOf(options.jsonSchema), [options.jsonSchema]);
  const parsed = parseInput(text);
  const fieldErrors =
    fields !== null && parsed.kind === "parsed" ? checkFields(fields, parsed.value) : {};
  return {
    text,
    setText,
    parsed,
    fields,
    fieldErrors,
    valid: parsed.kind === "parsed" && Object.keys(fieldErrors).length === 0,
    setField: (field, value) => {
      const current = parsed.kind === "parsed" ? parsed.value : {};
      const next = { ...current };
      if (value === undefined) delete next[field.name];
      else next[field.name] = value;
      setText(JSON.stringify(next, null, 2));
    },
  };
}

function textOf(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

function Field({
  field,
  editor,
  testId,
  error,
}: {
  field: TFormField;
  editor: TInputEditor;
  testId: string;
  error: string | undefined;
}) {
  const value = editor.parsed.kind === "parsed" ? editor.parsed.value[field.name] : undefined;
  const id = `${testId}-field-${field.name}`;
  const errorId = `${id}-error`;
  const common = {
    id,
    "data-testid": id,
    "aria-invalid": error !== undefined,
    "aria-describedby": error !== undefined ? errorId : undefined,
  };
  let control;
  switch (field.kind) {
    case "boolean":
      control = (
        <input
          {...common}
          type="checkbox"
          checked={value === true}
          onChange={(event) => editor.setField(field, event.target.checked)}
        />
      );
      break;
    case "enum":
      control = (
        <select
          {...common}
          className="input"
          value={textOf(value)}
          onChange={(event) => editor.setField(field, valueFromText(field, event.target.value))}
        >
          {field.required ? null : <option value="">(not set)</option>}
          {field.options.map((option) => (
            <option key={String(option)} value={String(option)}>
              {String(option)}
            </option>
          ))}
        </select>
      );
      break;
    case "string":
    case "number":
    case "integer":
      control = (
        <input
          {...common}
          className="input"
          // Text, not type=number: a browser's number box hides what was typed when it is not a
          // number, and the check could not say what is wrong.
          type="text"
          inputMode={field.kind === "string" ? "text" : "decimal"}
          value={textOf(value)}
          onChange={(event) => editor.setField(field, valueFromText(field, event.target.value))}
        />
      );
  }
  return (
    <div className="input-field" data-invalid={error !== undefined}>
      <label htmlFor={id}>
        <span className="mono">{field.name}</span>
        <span className="note">
          {" "}
          {field.kind}
          {field.required ? "" : " · optional"}
        </span>
      </label>
      {control}
      {field.description ? <span className="note">{field.description}</span> : null}
      {error !== undefined ? (
        <span className="inline-error" id={errorId} data-testid={errorId} role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}

/**
 * The typed form of an expectation's input (one field per property of a flat schema) above its
 * raw JSON, which stays editable for anything the fields cannot express. `serverIssues` are the
 * server's field issues of the last send (its zod check), shown beside their field too.
 */
export function InputEditor({
  editor,
  testId,
  note,
  serverIssues,
}: {
  editor: TInputEditor;
  testId: string;
  note: string | null;
  serverIssues: readonly { path: string; message: string }[] | null;
}) {
  const serverByField = new Map((serverIssues ?? []).map((issue) => [issue.path, issue.message]));
  const fieldNames = new Set((editor.fields ?? []).map((field) => field.name));
  const otherIssues = (serverIssues ?? []).filter((issue) => !fieldNames.has(issue.path));
  return (
    <div className="input-editor">
      {editor.fields !== null && editor.fields.length > 0 ? (
        <fieldset className="input-fields" data-testid={`${testId}-fields`}>
          <legend className="note">Input fields (from the expectation&apos;s schema)</legend>
          {editor.fields.map((field) => (
            <Field
              key={field.name}
              field={field}
              editor={editor}
              testId={testId}
              error={editor.fieldErrors[field.name] ?? serverByField.get(field.name)}
            />
          ))}
        </fieldset>
      ) : null}
      {note ? <p className="note">{note}</p> : null}
      <label className="filter-field">
        <span>Input (JSON object)</span>
        <textarea
          className="input fire-input"
          rows={Math.min(10, Math.max(3, editor.text.split("\n").length))}
          spellCheck={false}
          value={editor.text}
          data-testid={`${testId}-input`}
          onChange={(event) => editor.setText(event.target.value)}
        />
      </label>
      {editor.parsed.kind === "invalid" ? (
        <span className="inline-error" role="alert">
          Input must be a JSON object.
        </span>
      ) : null}
      {otherIssues.length > 0 ? (
        <ul className="inline-error issue-list" data-testid={`${testId}-issues`}>
          {otherIssues.map((issue) => (
            <li key={`${issue.path}:${issue.message}`}>
              <span className="mono">{issue.path === "" ? "(input)" : issue.path}</span>:{" "}
              {issue.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
