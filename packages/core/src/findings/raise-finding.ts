import type { Queryable } from "../db/index";
import { CycliumError } from "../errors/index";
import { findingColumns, toFinding, type Finding, type FindingRow } from "./finding-row";

/** The episode a finding is raised from: the finding takes its env and ids. */
export interface FindingSource {
  id: string;
  actorId: string;
  sourceEnv: string | null;
}

export interface RaiseFindingOptions {
  findingKey: string;
  class: string;
  severity?: string;
  subject?: string | null;
  summary?: string | null;
  data?: Record<string, unknown>;
  /**
   * When given, the finding lands in the episode's env (`source_env`), whatever `env` says:
   * writes follow the episode, so seeding an episode in another env puts its findings there.
   */
  episode?: FindingSource | null;
  /** The env of a finding raised without an episode; null is the unset env. */
  env?: string | null;
  /** Sets `expires_at`; the expiry sweep clears it after that. */
  ttlSeconds?: number | null;
}

/** `created`, a new active finding; `updated`, the active one with this key and env was raised again. */
export interface RaiseFindingResult {
  kind: "created" | "updated";
  finding: Finding;
}

// The arbiter is cyclium_findings_key_status_env_key (finding_key, status, env) NULLS NOT
// DISTINCT, so the unset env conflicts with itself too. Raising again refreshes the content,
// counts the raise and moves the expiry; inserted_at keeps when it was first raised.
const SQL = `
INSERT INTO cyclium_findings AS f
  (finding_key, class, severity, subject, summary, data, status, env, episode_id, actor_id, expires_at)
VALUES ($1, $2, $3, $4, $5, $6::jsonb, 'active', $7, $8, $9,
        CASE WHEN $10::float8 IS NULL THEN NULL ELSE now() + make_interval(secs => $10::float8) END)
ON CONFLICT (finding_key, status, env) DO UPDATE
   SET class = EXCLUDED.class,
       severity = EXCLUDED.severity,
       subject = EXCLUDED.subject,
       summary = EXCLUDED.summary,
       data = EXCLUDED.data,
       episode_id = COALESCE(EXCLUDED.episode_id, f.episode_id),
       actor_id = COALESCE(EXCLUDED.actor_id, f.actor_id),
       expires_at = EXCLUDED.expires_at,
       raised_count = f.raised_count + 1,
       updated_at = now()
RETURNING ${findingColumns("f")}, (f.xmax = 0) AS created`;

/** Upserts the one active finding per (finding_key, env). */
export async function raiseFinding(
  options: RaiseFindingOptions,
  db: Queryable,
): Promise<RaiseFindingResult> {
  if (options.ttlSeconds != null && !(options.ttlSeconds > 0)) {
    throw new CycliumError("invalid_input", "ttlSeconds must be a positive number");
  }
  const env = options.episode ? options.episode.sourceEnv : (options.env ?? null);
  const result = await db.query<FindingRow & { created: boolean }>(SQL, [
    options.findingKey,
    options.class,
    options.severity ?? "warning",
    options.subject ?? null,
    options.summary ?? null,
    JSON.stringify(options.data ?? {}),
    env,
    options.episode?.id ?? null,
    options.episode?.actorId ?? null,
    options.ttlSeconds ?? null,
  ]);
  const row = result.rows[0];
  if (!row) throw new Error("raiseFinding: upsert returned no row");
  return { kind: row.created ? "created" : "updated", finding: toFinding(row) };
}
