import type { Queryable } from "@cyclium/core";
import { RESOURCE_COLUMNS, toResource, type Resource, type ResourceRow } from "./resource";

export async function loadResource(id: string, db: Queryable): Promise<Resource | undefined> {
  const { rows } = await db.query<ResourceRow>(
    `SELECT ${RESOURCE_COLUMNS} FROM resources WHERE id = $1`,
    [id],
  );
  const row = rows[0];
  return row === undefined ? undefined : toResource(row);
}
