"use client";

import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { Suspense } from "react";
import { CONSOLE_PAGE_GROUPS, type TConsolePage } from "./console-pages";
import { CycliumMark } from "./cyclium-mark";
import { NavIcon } from "./nav-icon";

function isActive(page: TConsolePage, pathname: string): boolean {
  // Overview owns only "/"; every other page also owns its detail routes (/episodes/123).
  if (page.href === "/") return pathname === "/";
  return pathname === page.href || pathname.startsWith(`${page.href}/`);
}

export function AppSidebar() {
  return (
    <aside className="sidebar" id="console-sidebar">
      <Link href="/" className="sidebar-brand">
        <CycliumMark />
        <span className="sidebar-brand-name">Cyclium</span>
        <span className="sidebar-brand-tag">console</span>
      </Link>
      {/* The env parameter is only known per request: statically rendered pages (404) draw the
          links without it instead of failing the build. */}
      <Suspense fallback={<SidebarNav env={null} />}>
        <SidebarNavWithEnv />
      </Suspense>
      <div className="sidebar-footer">Cyclium for TypeScript</div>
    </aside>
  );
}

function SidebarNavWithEnv() {
  // The env being inspected travels with navigation (SPEC section 8: every read takes it).
  return <SidebarNav env={useSearchParams().get("env")} />;
}

function SidebarNav({ env }: { env: string | null }) {
  const pathname = usePathname();
  const hrefOf = (href: string) => (env ? `${href}?env=${encodeURIComponent(env)}` : href);
  return (
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
                    href={hrefOf(page.href)}
                    className="sidebar-link"
                    data-active={active}
                    aria-current={active ? "page" : undefined}
                    title={page.label}
                  >
                    <NavIcon page={page.id} />
                    <span className="sidebar-link-label">{page.label}</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
}
