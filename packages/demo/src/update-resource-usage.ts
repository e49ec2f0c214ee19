import type { Bus } from "@cyclium/core/console";
import type { Queryable } from "@cyclium/core";
import {
  RESOURCE_COLUMNS,
  RESOURCE_UPDATED_TOPIC,
  toResource,
  type Resource,
  type ResourceRow,
  type TResourceUpdated,
} from "./resource";

/**
 * Sets a resource's usage and announces it on the bus, so every node's `resource_monitor` sees
 * the change (and exactly one of them checks it). Returns undefined for an unknown resource.
 */
export async function updateResourceUsage(
  options: { id: string; usage: number; bus: Bus },
  db: Queryable,
): Promise<Resource | undefined> {
  const { rows } = await db.query<ResourceRow>(
    `UPDATE resources SET usage = $2, updated_at = now() WHERE id = $1 RETURNING ${RESOURCE_COLUMNS}`,
    [options.id, options.usage],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  const payload: TResourceUpdated = { resourceId: row.id };
  // The bus stamps every publish with a fresh id, so two updates to the same value are two
  // events with two dedupe keys: each one is checked.
  await options.bus.publish(RESOURCE_UPDATED_TOPIC, payload);
  return toResource(row);
}
