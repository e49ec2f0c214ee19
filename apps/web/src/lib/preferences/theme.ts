"use client";

import { useEffect } from "react";
import { useStoredChoice } from "./stored-choice";
import { THEME_CHOICES, THEME_KEY, type TThemeChoice } from "./theme-boot";

export { THEME_CHOICES, type TThemeChoice };

function applyTheme(choice: TThemeChoice): void {
  const dark =
    choice === "dark" ||
    (choice === "system" && window.matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.dataset.theme = dark ? "dark" : "light";
}

/** The theme choice, applied to <html> and kept in step with the system's while on "system". */
export function useTheme(): [TThemeChoice, (next: TThemeChoice) => void] {
  const [choice, setChoice] = useStoredChoice(THEME_KEY, THEME_CHOICES, "system");
  useEffect(() => {
    applyTheme(choice);
    if (choice !== "system") return;
    const media = window.matchMedia("(prefers-color-scheme: dark)");
    const follow = () => applyTheme("system");
    media.addEventListener("change", follow);
    return () => media.removeEventListener("change", follow);
  }, [choice]);
  return [choice, setChoice];
}
