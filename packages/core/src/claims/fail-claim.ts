import type { Queryable } from "../db/index";

const SQL = `
UPDATE cyclium_work_claims
   SET state = 'failed',
       error_detail = $4,
       updated_at = now()
 WHERE dedupe_key = $1
   AND owner_node = $2
   AND state = 'claimed'
   AND ($3::int IS NULL OR attempt = $3::int)`;

/** Marks the claim `failed` with a reason; false when the caller no longer owns it. */
export async function failClaim(
  options: { dedupeKey: string; owner: string; attempt?: number | undefined; errorDetail: string },
  db: Queryable,
): Promise<boolean> {
  const result = await db.query(SQL, [
    options.dedupeKey,
    options.owner,
    options.attempt ?? null,
    options.errorDetail,
  ]);
  return (result.rowCount ?? 0) > 0;
}
