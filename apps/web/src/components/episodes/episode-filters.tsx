"use client";

import { EPISODE_STATUSES } from "@cyclium/core/console/browser";
import { useQuery } from "@tanstack/react-query";
import type { ComponentProps } from "react";
import { FilterSelectField } from "@/components/ui/filter-select";
import { useUrlState, useEnvInput } from "@/lib/url-state";
import { useTRPC } from "@/trpc/trpc-react-provider";
import { useRefetchInterval } from "@/lib/live/use-refetch-interval";

export const TRIGGER_TYPES = ["event", "schedule", "poll", "manual", "workflow"] as const;

/** Relative windows, resolved to the minute so the query key stays stable while polling. */
export const TIME_RANGES = { "15m": 15, "1h": 60, "24h": 1_440, "7d": 10_080 } as const;
export type TTimeRange = keyof typeof TIME_RANGES;

export function isTimeRange(value: string | undefined): value is TTimeRange {
  return value !== undefined && value in TIME_RANGES;
}

/** `datetime-local` values are in the browser's zone; the URL keeps ISO instants. */
function toLocalInput(iso: string | undefined): string {
  if (iso === undefined) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

function fromLocalInput(value: string): string | undefined {
  if (value === "") return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The episode list's selects carry their URL parameter as form name too. */
function Select(props: Omit<ComponentProps<typeof FilterSelectField>, "name">) {
  return <FilterSelectField {...props} name={props.param} />;
}

/** Every filter of the episode list, each one a URL parameter. */
export function EpisodeFilters() {
  const trpc = useTRPC();
  const env = useEnvInput();
  const { get, update } = useUrlState();
  const facets = useQuery({
    ...trpc.episodes.facets.queryOptions({ env }),
    refetchInterval: useRefetchInterval(60_000, { pushed: false }),
  });
  const actor = get("actor");
  const expectations =
    facets.data?.actors.find((entry) => entry.actorId === actor)?.expectations ?? [];
  const range = get("range");
  const custom = range === "custom";
  const activeCount = [
    "actor",
    "expectation",
    "status",
    "trigger",
    "stack",
    "range",
    "archived",
    "exhausted",
  ]
    .map(get)
    .filter((value) => value !== undefined).length;

  return (
    <div className="filter-bar" role="search" aria-label="Episode filters">
      <Select
        label="Actor"
        param="actor"
        value={actor}
        options={facets.data?.actors.map((entry) => entry.actorId) ?? (actor ? [actor] : [])}
        onChange={(value) => update({ actor: value, expectation: undefined })}
      />
      <Select
        label="Expectation"
        param="expectation"
        value={get("expectation")}
        options={
          expectations.length > 0
            ? expectations
            : get("expectation")
              ? [get("expectation") ?? ""]
              : []
        }
        allLabel={actor ? "All" : "Pick an actor"}
        onChange={(value) => update({ expectation: value })}
      />
      <Select
        label="Status"
        param="status"
        value={get("status")}
        options={EPISODE_STATUSES}
        onChange={(value) => update({ status: value })}
      />
      <Select
        label="Trigger"
        param="trigger"
        value={get("trigger")}
        options={TRIGGER_TYPES}
        onChange={(value) => update({ trigger: value })}
      />
      <Select
        label="Stack"
        param="stack"
        value={get("stack")}
        options={facets.data?.stacks ?? []}
        allLabel="Any stack"
        onChange={(value) => update({ stack: value })}
      />
      <Select
        label="Inserted"
        param="range"
        value={range}
        allLabel="Any time"
        options={[
          { value: "15m", label: "Last 15 minutes" },
          { value: "1h", label: "Last hour" },
          { value: "24h", label: "Last 24 hours" },
          { value: "7d", label: "Last 7 days" },
          { value: "custom", label: "Between…" },
        ]}
        onChange={(value) => update({ range: value, from: undefined, to: undefined })}
      />
      {custom ? (
        <>
          <label className="filter-field">
            <span>From</span>
            <input
              type="datetime-local"
              value={toLocalInput(get("from"))}
              onChange={(event) => update({ from: fromLocalInput(event.target.value) })}
            />
          </label>
          <label className="filter-field">
            <span>To</span>
            <input
              type="datetime-local"
              value={toLocalInput(get("to"))}
              onChange={(event) => update({ to: fromLocalInput(event.target.value) })}
            />
          </label>
        </>
      ) : null}
      <div className="filter-bar-end">
        <label className="filter-check">
          <input
            type="checkbox"
            checked={get("archived") === "1"}
            onChange={(event) => update({ archived: event.target.checked ? "1" : undefined })}
          />
          Archived only
        </label>
        <label
          className="filter-check"
          title="Failed after more than one attempt: its retries are used up"
        >
          <input
            type="checkbox"
            checked={get("exhausted") === "1"}
            onChange={(event) => update({ exhausted: event.target.checked ? "1" : undefined })}
            data-testid="filter-exhausted"
          />
          Exhausted retries
        </label>
        <button
          type="button"
          className="button button-small button-ghost"
          disabled={activeCount === 0}
          onClick={() =>
            update({
              actor: undefined,
              expectation: undefined,
              status: undefined,
              trigger: undefined,
              stack: undefined,
              range: undefined,
              from: undefined,
              to: undefined,
              archived: undefined,
              exhausted: undefined,
            })
          }
        >
          Clear filters
        </button>
      </div>
    </div>
  );
}
