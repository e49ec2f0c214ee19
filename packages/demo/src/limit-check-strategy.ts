import { done, type Strategy } from "@cyclium/core/actors";
import { clearFinding, raiseFinding } from "@cyclium/core/findings";
import { CRITICAL_RATIO, ZResourceUpdated } from "./resource";
import { loadResource } from "./load-resource";

export const LIMIT_BREACH_CLASS = "limit_breach";

export function limitBreachKey(resourceId: string): string {
  return `${LIMIT_BREACH_CLASS}:${resourceId}`;
}

interface LimitCheckResult {
  resourceId: string;
  breach: boolean | null;
  usage?: number;
  limit?: number;
}

/**
 * `resource_monitor`'s check: a resource over its limit raises (or refreshes) its
 * `limit_breach` finding, one back under it clears it. One step: read, compare, write.
 */
export const limitCheckStrategy: Strategy<unknown, { resourceId: string }, LimitCheckResult> = {
  init: (_ctx, input) => ZResourceUpdated.parse(input),
  step: async ({ resourceId }, ctx) => {
    const resource = await loadResource(resourceId, ctx.db);
    if (resource === undefined) return done({ resourceId, breach: null });
    const breach = resource.usage > resource.limit;
    // Fence before side effects: a node that lost the claim must not touch the findings.
    if (!(await ctx.holdsClaim())) return done({ resourceId, breach: null });
    const { usage, limit } = resource;
    if (breach) {
      const ratio = limit > 0 ? usage / limit : Infinity;
      await raiseFinding(
        {
          findingKey: limitBreachKey(resource.id),
          class: LIMIT_BREACH_CLASS,
          severity: ratio >= CRITICAL_RATIO ? "critical" : "warning",
          subject: resource.id,
          summary: `${resource.name} is at ${Math.round(ratio * 100)}% of its limit (${usage} / ${limit}).`,
          data: { usage, limit, kind: resource.kind },
          episode: ctx.episode,
        },
        ctx.db,
      );
    } else {
      await clearFinding(
        { findingKey: limitBreachKey(resource.id), env: ctx.episode.sourceEnv },
        ctx.db,
      );
    }
    return done({ resourceId, breach, usage, limit });
  },
};
