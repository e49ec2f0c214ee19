"use client";

import { useUrlState } from "@/lib/url-state";

type TFilterOption = string | { value: string; label: string };

/**
 * A labelled dropdown of a filter bar, controlled by its caller. The first option (`allLabel`)
 * is no filter: choosing it reports undefined.
 */
export function FilterSelectField({
  label,
  param,
  name,
  value,
  options,
  onChange,
  allLabel = "All",
}: {
  label: string;
  /** The URL parameter it filters by; its test id is `filter-${param}`. */
  param: string;
  /** The select's form name, where it has one. */
  name?: string;
  value: string | undefined;
  options: readonly TFilterOption[];
  onChange: (value: string | undefined) => void;
  allLabel?: string;
}) {
  return (
    <label className="filter-field">
      <span>{label}</span>
      <select
        name={name}
        data-testid={`filter-${param}`}
        value={value ?? ""}
        onChange={(event) => onChange(event.target.value || undefined)}
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

/** A dropdown filter bound to one URL parameter. */
export function FilterSelect({
  label,
  param,
  options,
  allLabel = "All",
}: {
  label: string;
  param: string;
  options: readonly TFilterOption[];
  allLabel?: string;
}) {
  const { get, update } = useUrlState();
  return (
    <FilterSelectField
      label={label}
      param={param}
      value={get(param)}
      options={options}
      allLabel={allLabel}
      onChange={(value) => update({ [param]: value })}
    />
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
