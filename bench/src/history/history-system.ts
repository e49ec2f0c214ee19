import type { BenchSystem, DrainCheck } from "../systems/system";
import { cycliumSystem } from "../systems/cyclium/system";
import { BENCH_ACTOR_ID } from "../systems/cyclium/actor";
import { requestChecksSql } from "../systems/cyclium/request-checks";

/**
 * The cyclium system with its exactly-once check kept to the bench actor's rows: the history
 * databases also hold millions of finished episodes, steps, claims and requests of another actor,
 * which the stock check (whole-table counts) would report as extra rows.
 */
const CHECK_SQL = `
WITH mine AS (SELECT id, status, input FROM cyclium_episodes WHERE actor_id = $1)
SELECT
  ${requestChecksSql("mine")}
  (SELECT count(DISTINCT input->>'n') FROM mine WHERE status = 'completed')::int AS items_completed,
  (SELECT count(*) FROM mine)::int AS episodes,
  (SELECT count(*) FROM cyclium_episode_steps s JOIN mine ON mine.id = s.episode_id)::int AS steps,
  (SELECT count(*) FROM cyclium_episodes e JOIN mine ON mine.id = e.id
    WHERE e.status = 'completed' AND e.attempt = 1 AND e.lease_until IS NULL
      AND NOT EXISTS (SELECT 1 FROM cyclium_work_claims w
                       WHERE w.dedupe_key = 'episode:' || e.id::text
                         AND (w.state <> 'done' OR w.attempt <> 1)))::int AS claims_done_once`;

export const historyCycliumSystem: BenchSystem = {
  ...cycliumSystem,
  async check(client, count): Promise<DrainCheck> {
    const { rows } = await client.query<Record<string, number>>(CHECK_SQL, [BENCH_ACTOR_ID]);
    const row = rows[0];
    if (row === undefined) return { completed: 0, problems: ["check query returned no row"] };
    const problems = Object.entries(row)
      .filter(([, value]) => value !== count)
      .map(([name, value]) => `${name} = ${String(value)}, expected ${count}`);
    return { completed: row.requests_settled ?? 0, problems };
  },
};
