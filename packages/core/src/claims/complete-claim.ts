import type { Queryable } from "../db/index";

const SQL = `
UPDATE cyclium_work_claims
   SET state = 'done',
       updated_at = now()
 WHERE dedupe_key = $1
   AND owner_node = $2
   AND state = 'claimed'
   AND ($3::int IS NULL OR attempt = $3::int)`;

/** Marks the claim `done`; false when the caller no longer owns it. */
export async function completeClaim(
  options: { dedupeKey: string; owner: string; attempt?: number | undefined },
  db: Queryable,
): Promise<boolean> {
  const result = await db.query(SQL, [options.dedupeKey, options.owner, options.attempt ?? null]);
  return (result.rowCount ?? 0) > 0;
}
