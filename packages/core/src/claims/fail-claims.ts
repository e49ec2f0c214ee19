import type { Queryable } from "../db/index";

/**
 * `failClaim` (fail-claim.ts) for many claims of one owner in one statement, each under the same
 * fence: owner, `claimed`, and the attempt when given. Keys must be distinct. The rows are the
 * owner's, so the only writer it can meet is a thief of a lapsed claim (one row, one lock).
 */
const SQL = `
UPDATE cyclium_work_claims AS c
   SET state = 'failed',
       error_detail = r.error_detail,
       updated_at = now()
  FROM unnest($1::text[], $3::int[], $4::text[]) AS r(dedupe_key, attempt, error_detail)
 WHERE c.dedupe_key = r.dedupe_key
   AND c.dedupe_key = ANY($1::text[])
   AND c.owner_node = $2
   AND c.state = 'claimed'
   AND (r.attempt IS NULL OR c.attempt = r.attempt)
RETURNING c.dedupe_key`;

/** Marks each claim `failed` with its reason; returns the keys the caller still owned. */
export async function failClaims(
  options: {
    owner: string;
    claims: readonly { dedupeKey: string; attempt?: number | undefined; errorDetail: string }[];
  },
  db: Queryable,
): Promise<Set<string>> {
  if (options.claims.length === 0) return new Set();
  const result = await db.query<{ dedupe_key: string }>(SQL, [
    options.claims.map((claim) => claim.dedupeKey),
    options.owner,
    options.claims.map((claim) => claim.attempt ?? null),
    options.claims.map((claim) => claim.errorDetail),
  ]);
  return new Set(result.rows.map((row) => row.dedupe_key));
}
