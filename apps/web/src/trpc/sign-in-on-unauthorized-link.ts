import type { TRPCLink } from "@trpc/client";
import type { AnyTRPCRouter } from "@trpc/server";
import { observable } from "@trpc/server/observable";

let leaving = false;

/**
 * When the session ends under an open page (idle or absolute timeout, sign-out in another tab,
 * account disabled), the next call answers 401; go to the sign-in form and come back here after,
 * instead of leaving the page showing "could not load" forever.
 */
export function signInOnUnauthorizedLink<TRouter extends AnyTRPCRouter>(): TRPCLink<TRouter> {
  return () =>
    ({ next, op }) =>
      observable((observer) =>
        next(op).subscribe({
          next: (value) => observer.next(value),
          complete: () => observer.complete(),
          error: (error) => {
            const data: unknown = error.data;
            const status =
              typeof data === "object" && data !== null && "httpStatus" in data
                ? data.httpStatus
                : undefined;
            if (status === 401 && typeof window !== "undefined" && !leaving) {
              leaving = true;
              const here = `${window.location.pathname}${window.location.search}`;
              window.location.assign(`/sign-in?next=${encodeURIComponent(here)}`);
            }
            observer.error(error);
          },
        }),
      );
}
