"use client";

import { useUrlState } from "@/lib/url-state";

/** A dropdown filter bound to one URL parameter. */
export function FilterSelect({
  label,
  param,
  options,
  allLabel = "All",
}: {
  label: string;
  param: string;
  options: readonly (string | { value: string; label: string })[];
  allLabel?: string;
}) {
  const { get, update } = useUrlState();
  return (
    <label className="filter-field">
      <span>{label}</span>
      <select
        data-testid={`filter-${param}`}
        value={get(param) ?? ""}
        onChange={(event) => update({ [param]: event.target.value || undefined })}
      >
        <option value="">{allLabel}</option>
        {options.map((option) => {
          const entry = typeof option === "string" ? { value: option, label: option } : option;
          return (
            <option key={entry.value} value={entry.value}>
              {entry.label}
            </option>
          );
        })}
      </select>
    </label>
  );
}

/** A free-text filter bound to one URL parameter, applied on Enter or when leaving the field. */
export function FilterText({
  label,
  param,
  placeholder,
}: {
  label: string;
  param: string;
  placeholder: string;
}) {
  const { get, update } = useUrlState();
  const current = get(param) ?? "";
  return (
    <label className="filter-field">
      <span>{label}</span>
      <input
        key={current}
        defaultValue={current}
        placeholder={placeholder}
        data-testid={`filter-${param}`}
        onBlur={(event) => update({ [param]: event.target.value.trim() || undefined })}
        onKeyDown={(event) => {
          if (event.key === "Enter")
            update({ [param]: event.currentTarget.value.trim() || undefined });
        }}
      />
    </label>
  );
}
