import { done, type Strategy } from "@cyclium/core";
import { assertNever } from "@cyclium/core/console";
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
    const { usage, limit } = resource;
    const ratio = limit > 0 ? usage / limit : Infinity;
    // The fenced calls check the claim and write in one transaction: a node that lost the claim
    // writes nothing. (holdsClaim() and then a write on ctx.db would leave a window between them.)
    const written = breach
      ? await ctx.raiseFinding({
          findingKey: limitBreachKey(resource.id),
          class: LIMIT_BREACH_CLASS,
          severity: ratio >= CRITICAL_RATIO ? "critical" : "warning",
          subject: resource.id,
          summary: `${resource.name} is at ${Math.round(ratio * 100)}% of its limit (${usage} / ${limit}).`,
          data: { usage, limit, kind: resource.kind },
        })
      : await ctx.clearFinding(limitBreachKey(resource.id));
    switch (written.kind) {
      case "fenced":
        return done({ resourceId, breach: null });
      case "written":
      case "not_found":
        return done({ resourceId, breach, usage, limit });
      default:
        return assertNever(written, "finding write");
    }
  },
};
