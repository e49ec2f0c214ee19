"use client";

import { useStoredChoice } from "./stored-choice";

export const TIME_ZONE_CHOICES = ["utc", "local"] as const;
export type TTimeZoneChoice = (typeof TIME_ZONE_CHOICES)[number];

/**
 * UTC or the browser's zone for every absolute time the console prints. UTC by default: the
 * server renders it (it cannot know the operator's zone) and operators across zones read the
 * same text.
 */
export function useTimeZone(): [TTimeZoneChoice, (next: TTimeZoneChoice) => void] {
  return useStoredChoice("cyclium.time-zone", TIME_ZONE_CHOICES, "utc");
}
