"use client";

import { keepPreviousData } from "@tanstack/react-query";
import { useRefetchInterval } from "./use-refetch-interval";

/**
 * The query options every live list shares: a filter or page change keeps the shown rows on
 * screen until the new ones arrive (no flash of empty), and the list refetches every `refreshMs`
 * under the operator's refresh mode (`pushed: false` as for useRefetchInterval).
 */
export function useLiveListOptions(refreshMs: number, options: { pushed?: boolean } = {}) {
  return {
    placeholderData: keepPreviousData,
    refetchInterval: useRefetchInterval(refreshMs, options),
  };
}
