"use client";

import { usePathname } from "next/navigation";
import { type ReactNode, Suspense, useEffect, useState } from "react";
import { Icon } from "@/components/icons/icon";
import { KeyboardShortcuts } from "./keyboard-shortcuts";

/** Pages drawn without the sidebar and top bar: nothing to navigate to before signing in. */
const BARE_PATHS = new Set(["/sign-in"]);

/**
 * The root layout is shared by every page and is not re-rendered on client navigation, so the
 * choice between the console frame and a bare page is made here, from the current path. On a
 * phone the sidebar is a menu behind the button of the phone bar (responsive.css).
 */
export function ConsoleChrome({
  sidebar,
  topBar,
  children,
}: {
  sidebar: ReactNode;
  topBar: ReactNode;
  children: ReactNode;
}) {
  const pathname = usePathname();
  // The menu is open for the page it was opened on: navigating closes it without an effect.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const navOpen = openOn === pathname;
  useEffect(() => {
    if (!navOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setOpenOn(null);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [navOpen]);
  if (BARE_PATHS.has(pathname)) return <>{children}</>;
  return (
    <div className="app-shell" data-nav-open={navOpen}>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <div className="phone-bar">
        <button
          type="button"
          className="icon-button icon-button-text"
          aria-expanded={navOpen}
          aria-controls="console-sidebar"
          data-testid="nav-menu-button"
          onClick={() => setOpenOn(navOpen ? null : pathname)}
        >
          <Icon name={navOpen ? "close" : "menu"} size={18} />
          <span>Menu</span>
        </button>
        <span className="phone-bar-title">Cyclium console</span>
      </div>
      {sidebar}
      {navOpen ? (
        <div className="nav-backdrop" aria-hidden="true" onClick={() => setOpenOn(null)} />
      ) : null}
      <div className="app-main">
        {topBar}
        <main id="main" className="app-content" tabIndex={-1}>
          {children}
        </main>
      </div>
      <Suspense fallback={null}>
        <KeyboardShortcuts />
      </Suspense>
    </div>
  );
}
