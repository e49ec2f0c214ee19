import type { Queryable } from "../db/index";

export interface LoadBusEventOptions {
  db: Queryable;
  id: string;
}

/** The stored event envelope, or undefined when the row is gone (cleaned up, or never committed). */
export async function loadBusEvent({ db, id }: LoadBusEventOptions): Promise<unknown> {
  const { rows } = await db.query<{ payload: unknown }>(
    "SELECT payload FROM cyclium_bus_events WHERE id = $1::bigint",
    [id],
  );
  return rows[0]?.payload;
}
