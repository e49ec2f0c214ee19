"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { CONSOLE_PAGE_GROUPS, type TConsolePage } from "./console-pages";
import { CycliumMark } from "./cyclium-mark";
import { NavIcon } from "./nav-icon";

function isActive(page: TConsolePage, pathname: string): boolean {
  // Overview owns only "/"; every other page also owns its detail routes (/episodes/123).
  if (page.href === "/") return pathname === "/";
  return pathname === page.href || pathname.startsWith(`${page.href}/`);
}

export function AppSidebar() {
  const pathname = usePathname();
  return (
    <aside className="sidebar">
      <Link href="/" className="sidebar-brand" aria-label="Cyclium console home">
        <CycliumMark />
        <span className="sidebar-brand-name">Cyclium</span>
        <span className="sidebar-brand-tag">console</span>
      </Link>
      <nav className="sidebar-nav" aria-label="Console">
        {CONSOLE_PAGE_GROUPS.map((group) => (
          <div key={group.label} className="sidebar-group">
            <div className="sidebar-group-label">{group.label}</div>
            <ul>
              {group.pages.map((page) => {
                const active = isActive(page, pathname);
                return (
                  <li key={page.id}>
                    <Link
                      href={page.href}
                      className="sidebar-link"
                      data-active={active}
                      aria-current={active ? "page" : undefined}
                    >
                      <NavIcon page={page.id} />
                      <span>{page.label}</span>
                    </Link>
                  </li>
                );
              })}
            </ul>
          </div>
        ))}
      </nav>
      <div className="sidebar-footer">Cyclium for TypeScript</div>
    </aside>
  );
}
