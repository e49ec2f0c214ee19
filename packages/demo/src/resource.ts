import { z } from "zod";

/** A row of the demo `resources` table: something with a usage and a limit. */
export const ZResource = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.string(),
  usage: z.number(),
  limit: z.number(),
  updatedAt: z.date(),
});
export type Resource = z.infer<typeof ZResource>;

export interface ResourceRow {
  id: string;
  name: string;
  kind: string;
  usage: number;
  limit: number;
  updated_at: Date;
}

export const RESOURCE_COLUMNS = `id, name, kind, usage, "limit", updated_at`;

export function toResource(row: ResourceRow): Resource {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    usage: row.usage,
    limit: row.limit,
    updatedAt: row.updated_at,
  };
}

/** Bus topic published whenever a resource's usage or limit changes. */
export const RESOURCE_UPDATED_TOPIC = "resource.updated";

/**
 * Its payload: which resource changed (the monitor reads the current row itself). Also the
 * input schema of `check_resource_limits`, so the console's Fire form offers a resourceId field
 * with a seeded resource as its example.
 */
export const ZResourceUpdated = z.object({
  resourceId: z
    .string()
    .min(1)
    .meta({ description: "Id of the resource to check", examples: ["db-primary"] }),
});
export type TResourceUpdated = z.infer<typeof ZResourceUpdated>;

/** Usage above this share of the limit counts as "near the limit" in the advisor's summary. */
export const NEAR_LIMIT_RATIO = 0.8;

/**
 * `summarise_capacity`'s input: where "near the limit" starts, in percent (default 80). Loose:
 * a scheduled or workflow fire carries its trigger context (scheduled_time, ...) beside it.
 */
export const ZAdvisorInput = z.looseObject({
  nearLimitPercent: z
    .number()
    .int()
    .min(1)
    .max(100)
    .default(NEAR_LIMIT_RATIO * 100)
    .meta({ description: "Usage above this percentage of the limit counts as near the limit" }),
});
export type TAdvisorInput = z.infer<typeof ZAdvisorInput>;
/** Usage above this share of the limit makes a breach critical rather than a warning. */
export const CRITICAL_RATIO = 1.2;
