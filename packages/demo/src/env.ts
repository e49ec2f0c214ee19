import { withoutEmptyValues } from "@cyclium/core/console";
import { z } from "zod";

// The demo's own schedules, read where the deployment is loaded (worker, console, CLI): test
// clusters move them out of the way, since a scheduled episode landing mid-test changes counts.
const ZDemoEnv = z.object({
  /** The advisor's schedule (resource_advisor). */
  CYCLIUM_DEMO_ADVISOR_CRON: z.string().trim().min(1).max(255).default("*/5 * * * *"),
  /** When the `capacity_review` cron trigger fires (six fields allow seconds). */
  CYCLIUM_DEMO_REVIEW_CRON: z.string().trim().min(1).max(255).default("0 */6 * * *"),
});

export type TDemoEnv = z.infer<typeof ZDemoEnv>;

export function readDemoEnv(source: Record<string, string | undefined> = process.env): TDemoEnv {
  // An empty variable means "unset", as for the apps.
  return ZDemoEnv.parse(withoutEmptyValues(source));
}
