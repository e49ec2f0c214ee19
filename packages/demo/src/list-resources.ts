import type { Queryable } from "@cyclium/core";
import { RESOURCE_COLUMNS, toResource, type Resource, type ResourceRow } from "./resource";

/** Every resource, by id; the demo table holds a handful. */
export async function listResources(db: Queryable): Promise<Resource[]> {
  const { rows } = await db.query<ResourceRow>(
    `SELECT ${RESOURCE_COLUMNS} FROM resources ORDER BY id`,
  );
  return rows.map(toResource);
}
