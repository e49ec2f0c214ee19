"use client";

import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { type ReactNode, useState } from "react";
import { z } from "zod";
import type { AppRouter } from "@/server/trpc/root-router";
import { makeQueryClient } from "./query-client";
import { signInOnUnauthorizedLink } from "./sign-in-on-unauthorized-link";

// zod compiles object schemas with `new Function` after probing whether eval is allowed; under the
// console's CSP (no 'unsafe-eval', proxy.ts) the probe itself is reported as a violation. The
// browser's schemas are small: parse them without the JIT and never probe.
z.config({ jitless: true });

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

let browserQueryClient: QueryClient | undefined;

function getQueryClient(): QueryClient {
  // On the server every render gets a fresh client so requests never share cached data; in the
  // browser one client lives for the tab, or React would throw it away if a render suspends.
  if (typeof window === "undefined") return makeQueryClient();
  browserQueryClient ??= makeQueryClient();
  return browserQueryClient;
}

export function TRPCReactProvider({ children }: { children: ReactNode }) {
  const queryClient = getQueryClient();
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      // Relative URL: hooks only fetch in the browser; the server prefetches via the router.
      links: [
        signInOnUnauthorizedLink(),
        // The live stream (live.events) is Server-sent Events on the same endpoint; everything
        // else is batched.
        splitLink({
          condition: (op) => op.type === "subscription",
          true: httpSubscriptionLink({ url: "/api/trpc" }),
          false: httpBatchLink({ url: "/api/trpc", maxItems: 10 /* the server refuses more */ }),
        }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
