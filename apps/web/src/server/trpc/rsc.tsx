// Server-side half of the tRPC + TanStack Query wiring: server components prefetch procedures
// straight through the router (no HTTP hop) and hand the results to client components, which
// keep them fresh over /api/trpc.
import "server-only";
import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { headers } from "next/headers";
import { cache, type ReactNode } from "react";
import { makeQueryClient } from "../../trpc/query-client";
import { createTrpcContext } from "./context";
import { appRouter } from "./root-router";

// One QueryClient per request: React's cache() is scoped to a single server render.
export const getQueryClient = cache(makeQueryClient);

const createRscContext = cache(async () =>
  createTrpcContext({ headers: new Headers(await headers()) }),
);

export const trpc = createTRPCOptionsProxy({
  ctx: createRscContext,
  router: appRouter,
  queryClient: getQueryClient,
});

export function HydrateClient({ children }: { children: ReactNode }) {
  return <HydrationBoundary state={dehydrate(getQueryClient())}>{children}</HydrationBoundary>;
}
