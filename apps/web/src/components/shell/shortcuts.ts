// The console's keyboard shortcuts in one list: the key handler and the help dialog read it.

export interface TGoShortcut {
  key: string;
  href: string;
  label: string;
}

/** `g` then a letter opens a page, as in GitHub and Linear. */
export const GO_SHORTCUTS: readonly TGoShortcut[] = [
  { key: "o", href: "/", label: "Overview" },
  { key: "e", href: "/episodes", label: "Episodes" },
  { key: "c", href: "/claims", label: "Work claims" },
  { key: "q", href: "/trigger-requests", label: "Trigger requests" },
  { key: "a", href: "/actors", label: "Actors & modes" },
  { key: "t", href: "/triggers", label: "Triggers" },
  { key: "w", href: "/workflows", label: "Workflows" },
  { key: "f", href: "/findings", label: "Findings" },
  { key: "m", href: "/telemetry", label: "Telemetry" },
  { key: "l", href: "/audit", label: "Audit log" },
  { key: "r", href: "/recovery", label: "Recovery" },
];

export const OTHER_SHORTCUTS = [
  { keys: ["/"], label: "Focus the page's search or first filter" },
  { keys: ["?"], label: "Show this list" },
  { keys: ["Esc"], label: "Close this list or the menu" },
] as const;

/** Dispatched on window by the top bar's help button. */
export const OPEN_SHORTCUTS_EVENT = "cyclium:shortcuts";
