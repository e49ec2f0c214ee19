"use client";

import { usePageInput } from "@/components/ui/pager";
import { oneOf, useEnvInput, useUrlState } from "@/lib/url-state";
import type { TEpisodeListInput } from "@/server/trpc/routers/episodes.schema";
import { EPISODE_STATUSES } from "@cyclium/core/console/browser";
import { isTimeRange, TIME_RANGES, TRIGGER_TYPES } from "./episode-filters";

const isoOrUndefined = (value: string | undefined) =>
  value !== undefined && !Number.isNaN(Date.parse(value))
    ? new Date(value).toISOString()
    : undefined;

/**
 * The episodes.list input the URL describes. Unknown values are dropped rather than sent, so a
 * hand-edited URL shows a wider list instead of an error. A relative range is resolved to the
 * start of the current minute: the query key stays the same between polls within a minute.
 */
export function useEpisodeListInput(now: number): TEpisodeListInput {
  const { get } = useUrlState();
  const env = useEnvInput();
  const range = get("range");
  const minute = Math.floor(now / 60_000) * 60_000;
  const relative = isTimeRange(range)
    ? new Date(minute - TIME_RANGES[range] * 60_000).toISOString()
    : undefined;
  return {
    env,
    actorId: get("actor"),
    expectationId: get("expectation"),
    status: oneOf(EPISODE_STATUSES, get("status")),
    triggerType: oneOf(TRIGGER_TYPES, get("trigger")),
    stack: get("stack"),
    from: range === "custom" ? isoOrUndefined(get("from")) : relative,
    to: range === "custom" ? isoOrUndefined(get("to")) : undefined,
    archived: get("archived") === "1" ? true : undefined,
    exhausted: get("exhausted") === "1" ? true : undefined,
    q: get("q"),
    ...usePageInput(),
  };
}
