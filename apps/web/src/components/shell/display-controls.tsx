"use client";

import { Icon, type TIconName } from "@/components/icons/icon";
import { THEME_CHOICES, type TThemeChoice, useTheme } from "@/lib/preferences/theme";
import { type TTimeZoneChoice, useTimeZone } from "@/lib/preferences/time-zone";
import { OPEN_SHORTCUTS_EVENT } from "./shortcuts";

const THEME_ICON: Record<TThemeChoice, TIconName> = {
  system: "monitor",
  light: "sun",
  dark: "moon",
};

/**
 * The operator's display choices in the top bar: the theme (system, light, dark; cycles on
 * click) and the zone absolute times are printed in. Both are stored in this browser only.
 */
export function DisplayControls() {
  const [theme, setTheme] = useTheme();
  const [zone, setZone] = useTimeZone();
  const nextTheme = THEME_CHOICES[(THEME_CHOICES.indexOf(theme) + 1) % THEME_CHOICES.length];
  const nextZone: TTimeZoneChoice = zone === "utc" ? "local" : "utc";
  return (
    <span className="display-controls">
      <button
        type="button"
        className="icon-button"
        data-testid="theme-toggle"
        data-theme-choice={theme}
        aria-label={`Theme: ${theme}. Switch to ${nextTheme ?? "system"}`}
        title={`Theme: ${theme} (click for ${nextTheme ?? "system"})`}
        onClick={() => setTheme(nextTheme ?? "system")}
      >
        <Icon name={THEME_ICON[theme]} size={16} />
      </button>
      <button
        type="button"
        className="icon-button icon-button-text"
        data-testid="time-zone-toggle"
        aria-label={`Times in ${zone === "utc" ? "UTC" : "local time"}. Switch to ${nextZone === "utc" ? "UTC" : "local time"}`}
        title="Print absolute times in UTC or in this browser's time zone"
        onClick={() => setZone(nextZone)}
      >
        <Icon name="clock" size={15} />
        <span>{zone === "utc" ? "UTC" : "Local"}</span>
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label="Keyboard shortcuts"
        title="Keyboard shortcuts (?)"
        onClick={() => window.dispatchEvent(new Event(OPEN_SHORTCUTS_EVENT))}
      >
        <Icon name="keyboard" size={16} />
      </button>
    </span>
  );
}
