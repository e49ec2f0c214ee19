import type { ReactNode } from "react";
import type { TConsolePageId } from "./console-pages";

// Hand-drawn 24×24 stroke icons: the console needs eleven glyphs, not an icon library.
const ICON_PATHS: Record<TConsolePageId, ReactNode> = {
  overview: (
    <>
      <rect x="3" y="3" width="7.5" height="7.5" rx="1.5" />
      <rect x="13.5" y="3" width="7.5" height="7.5" rx="1.5" />
      <rect x="3" y="13.5" width="7.5" height="7.5" rx="1.5" />
      <rect x="13.5" y="13.5" width="7.5" height="7.5" rx="1.5" />
    </>
  ),
  episodes: <path d="M3 12h4l3-8 4 16 3-8h4" />,
  claims: (
    <>
      <rect x="4.5" y="10.5" width="15" height="10.5" rx="2" />
      <path d="M8 10.5V7a4 4 0 0 1 8 0v3.5" />
    </>
  ),
  "trigger-requests": (
    <>
      <path d="M3 13.5h5l1.5 3h5l1.5-3h5" />
      <path d="M5 13.5 7 5h10l2 8.5V19a1.5 1.5 0 0 1-1.5 1.5h-11A1.5 1.5 0 0 1 5 19z" />
    </>
  ),
  actors: (
    <>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21a8 8 0 0 1 16 0" />
    </>
  ),
  triggers: <path d="M13 2 4.5 13.5H12L11 22l8.5-11.5H12z" />,
  workflows: (
    <>
      <circle cx="5.5" cy="12" r="2.5" />
      <circle cx="18.5" cy="5.5" r="2.5" />
      <circle cx="18.5" cy="18.5" r="2.5" />
      <path d="M8 12h3.5M11.5 5.5V18.5M11.5 5.5H16M11.5 18.5H16" />
    </>
  ),
  findings: (
    <>
      <path d="M5 21V4" />
      <path d="M5 4h11l-2 4 2 4H5" />
    </>
  ),
  telemetry: <path d="M4 20V10M10 20V4M16 20v-7M22 20H2" />,
  audit: (
    <>
      <path d="M6 3h9l4 4v14H6z" />
      <path d="M9.5 11h6M9.5 14.5h6M9.5 18h3.5" />
    </>
  ),
  recovery: (
    <>
      <path d="M3.5 12a8.5 8.5 0 1 0 2.5-6" />
      <path d="M3.5 3.5V8H8" />
    </>
  ),
};

export function NavIcon({ page }: { page: TConsolePageId }) {
  return (
    <svg
      className="nav-icon"
      viewBox="0 0 24 24"
      width="18"
      height="18"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      {ICON_PATHS[page]}
    </svg>
  );
}
