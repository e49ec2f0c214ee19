import { done, next, waitFor, type Strategy } from "@cyclium/core";
import { z } from "zod";
import { loadResource } from "./load-resource";
import { ZResourceUpdated } from "./resource";

/**
 * The operator's answer to a proposed limit raise (the console builds its form from this):
 * approve or reject, with a comment that the audit log keeps beside who sent it.
 */
export const ZLimitApproval = z.strictObject({
  decision: z.enum(["approve", "reject"]).meta({ description: "Apply the new limit, or not" }),
  comment: z.string().trim().min(1).max(500).meta({ description: "Why, for the audit log" }),
});
export type TLimitApproval = z.infer<typeof ZLimitApproval>;

/** The signal `raise_limit` waits for. */
export const LIMIT_APPROVAL_SIGNAL = "approval";
/** How long a proposal waits for an operator before it lapses: three days. */
export const LIMIT_APPROVAL_TIMEOUT_MS = 3 * 24 * 60 * 60 * 1000;
/** The proposal leaves this much headroom above the current usage. */
const HEADROOM = 1.25;

type LimitRaiseState =
  | { phase: "propose"; resourceId: string }
  | { phase: "decide"; resourceId: string; from: number; to: number }
  | { phase: "apply"; resourceId: string; from: number; to: number; comment: string };

export interface LimitRaiseResult {
  resourceId: string;
  outcome: "raised" | "rejected" | "lapsed" | "unknown_resource";
  from?: number;
  to?: number;
  by?: string;
  comment?: string;
}

/**
 * `resource_monitor`'s `raise_limit` (issue 32's demo): proposes a new limit for a resource, asks
 * an operator to approve it (a durable wait: no slot held, any worker resumes it), and only then
 * applies it in its last step.
 */
export const limitRaiseStrategy: Strategy<unknown, LimitRaiseState, LimitRaiseResult> = {
  init: (_ctx, input) => ({ phase: "propose", ...ZResourceUpdated.parse(input) }),
  step: async (state, ctx) => {
    const { resourceId } = state;
    switch (state.phase) {
      case "propose": {
        const resource = await loadResource(resourceId, ctx.db);
        if (resource === undefined) return done({ resourceId, outcome: "unknown_resource" });
        const to = Math.ceil(Math.max(resource.usage, resource.limit) * HEADROOM);
        return waitFor({
          signal: LIMIT_APPROVAL_SIGNAL,
          timeoutMs: LIMIT_APPROVAL_TIMEOUT_MS,
          state: { phase: "decide", resourceId, from: resource.limit, to },
        });
      }
      case "decide": {
        const { from, to } = state;
        const wakeup = ctx.wakeup;
        if (wakeup?.kind !== "signal") return done({ resourceId, outcome: "lapsed", from, to });
        const answer = ZLimitApproval.parse(wakeup.payload);
        const by = wakeup.sentBy;
        if (answer.decision === "reject") {
          return done({ resourceId, outcome: "rejected", from, to, by, comment: answer.comment });
        }
        return next({ phase: "apply", resourceId, from, to, comment: answer.comment });
      }
      case "apply": {
        // Setting a value, not adding to it: a re-run of this step changes nothing more.
        await ctx.db.query(`UPDATE resources SET "limit" = $2, updated_at = now() WHERE id = $1`, [
          resourceId,
          state.to,
        ]);
        const { from, to, comment } = state;
        return done({ resourceId, outcome: "raised", from, to, comment });
      }
    }
  },
};
