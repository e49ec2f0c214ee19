import type { Metadata } from "next";
import { headers } from "next/headers";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { AppSidebar } from "@/components/shell/app-sidebar";
import { ConsoleChrome } from "@/components/shell/console-chrome";
import { TopBar } from "@/components/shell/top-bar";
import { THEME_BOOT_SCRIPT } from "@/lib/preferences/theme-boot";
import { TRPCReactProvider } from "@/trpc/trpc-react-provider";
import "./styles/tokens.css";
import "./styles/shell.css";
import "./styles/components.css";
import "./styles/console.css";
import "./styles/console-detail.css";
import "./styles/console-widgets.css";
import "./styles/shell-controls.css";
import "./styles/live.css";
import "./styles/failures.css";
import "./styles/episode-search.css";
import "./styles/table-fit.css";
// After every page style: its media queries override them on narrow screens.
import "./styles/responsive.css";
import "./styles/theme-dark.css";

export const metadata: Metadata = {
  title: { default: "Cyclium console", template: "%s · Cyclium" },
  description: "Operator console for Cyclium: episodes, claims, triggers and nodes.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request: the CSP nonce (proxy.ts) is per response, and a prerendered
  // page would carry scripts without it, which the policy blocks.
  await connection();
  // proxy.ts puts this response's CSP nonce on the request; without it the script is blocked.
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    // The boot script sets data-theme before React hydrates; React must not undo it.
    <html lang="en" suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_BOOT_SCRIPT }} />
      </head>
      <body>
        <TRPCReactProvider>
          <ConsoleChrome sidebar={<AppSidebar />} topBar={<TopBar />}>
            {children}
          </ConsoleChrome>
        </TRPCReactProvider>
      </body>
    </html>
  );
}
