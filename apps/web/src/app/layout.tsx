import type { Metadata } from "next";
import type { ReactNode } from "react";
import { AppSidebar } from "@/components/shell/app-sidebar";
import { ConsoleChrome } from "@/components/shell/console-chrome";
import { TopBar } from "@/components/shell/top-bar";
import { TRPCReactProvider } from "@/trpc/trpc-react-provider";
import "./styles/tokens.css";
import "./styles/shell.css";
import "./styles/components.css";
import "./styles/console.css";
import "./styles/console-detail.css";
import "./styles/console-widgets.css";

export const metadata: Metadata = {
  title: { default: "Cyclium console", template: "%s · Cyclium" },
  description: "Operator console for Cyclium: episodes, claims, triggers and nodes.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
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
