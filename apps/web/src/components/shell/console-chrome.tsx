"use client";

import { usePathname } from "next/navigation";
import type { ReactNode } from "react";

/** Pages drawn without the sidebar and top bar: nothing to navigate to before signing in. */
const BARE_PATHS = new Set(["/sign-in"]);

/**
 * The root layout is shared by every page and is not re-rendered on client navigation, so the
 * choice between the console frame and a bare page is made here, from the current path.
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
  if (BARE_PATHS.has(pathname)) return <>{children}</>;
  return (
    <div className="app-shell">
      {sidebar}
      <div className="app-main">
        {topBar}
        <main className="app-content">{children}</main>
      </div>
    </div>
  );
}
