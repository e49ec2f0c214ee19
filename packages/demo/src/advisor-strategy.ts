import { done, next, type Strategy } from "@cyclium/core";
import { listResources } from "./list-resources";
import { NEAR_LIMIT_RATIO, ZAdvisorInput, type Resource } from "./resource";

export interface AdvisorSummary {
  resources: number;
  overLimit: string[];
  nearLimit: string[];
  busiest: { id: string; utilization: number } | null;
  advice: string;
}

type AdvisorState =
  | { phase: "load"; nearLimitRatio: number }
  | { phase: "summarise"; nearLimitRatio: number; resources: Resource[] };

/** `resource_advisor`'s periodic summary: step 1 reads the resources, step 2 sums them up. */
export const advisorStrategy: Strategy<unknown, AdvisorState, AdvisorSummary> = {
  init: (_ctx, input) => ({
    phase: "load",
    nearLimitRatio: ZAdvisorInput.parse(input).nearLimitPercent / 100,
  }),
  step: async (state, ctx) => {
    if (state.phase === "load") {
      const resources = await listResources(ctx.db);
      return next({ phase: "summarise", nearLimitRatio: state.nearLimitRatio, resources });
    }
    return done(summarise(state.resources, state.nearLimitRatio));
  },
};

export function summarise(
  resources: readonly Resource[],
  nearLimitRatio: number = NEAR_LIMIT_RATIO,
): AdvisorSummary {
  const utilization = (r: Resource) => (r.limit > 0 ? r.usage / r.limit : Infinity);
  const overLimit = resources.filter((r) => utilization(r) > 1).map((r) => r.id);
  const nearLimit = resources
    .filter((r) => utilization(r) > nearLimitRatio && utilization(r) <= 1)
    .map((r) => r.id);
  const busiest = [...resources].sort((a, b) => utilization(b) - utilization(a))[0];
  const advice =
    overLimit.length > 0
      ? `Raise the limit or shed load on ${overLimit.join(", ")}.`
      : nearLimit.length > 0
        ? `Watch ${nearLimit.join(", ")}: above ${Math.round(nearLimitRatio * 100)}% of their limits.`
        : "All resources are comfortably within their limits.";
  return {
    resources: resources.length,
    overLimit,
    nearLimit,
    busiest: busiest
      ? { id: busiest.id, utilization: Math.round(utilization(busiest) * 1000) / 1000 }
      : null,
    advice,
  };
}
