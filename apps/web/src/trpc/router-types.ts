import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root-router";

/** What procedures return as the browser receives it (after JSON serialisation). */
export type TRouterOutputs = inferRouterOutputs<AppRouter>;
export type TRouterInputs = inferRouterInputs<AppRouter>;

export type TEpisodeDetailView = NonNullable<TRouterOutputs["episodes"]["detail"]>;
export type TEpisodeStepView = TEpisodeDetailView["steps"][number];
export type TEpisodeClaimView = NonNullable<TEpisodeDetailView["claim"]>;
