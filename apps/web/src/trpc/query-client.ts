import { defaultShouldDehydrateQuery, QueryClient } from "@tanstack/react-query";
import { isNotFoundError } from "@/lib/not-found-error";

/** Shared by the server (one per request) and the browser (one per tab). */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Data rendered on the server must not be refetched the instant it hydrates; live
        // pages set their own refetchInterval, which ignores staleTime.
        staleTime: 30_000,
        // An operator console sits in a background tab for hours; a retry storm against a
        // database that is down helps nobody. One retry covers a dropped connection; a NOT_FOUND
        // is an answer (`/triggers/nope` retried it forever), never retried.
        retry: (failureCount, error) => failureCount < 1 && !isNotFoundError(error),
      },
      dehydrate: {
        // Also send queries still in flight, so a server component can start a prefetch
        // without awaiting it and let the client pick up the streamed promise.
        shouldDehydrateQuery: (query) =>
          defaultShouldDehydrateQuery(query) || query.state.status === "pending",
      },
    },
  });
}
