/**
 * Two columns of the exactly-once check, over the episodes of `episodes` (a table or a CTE with
 * an `id`): `requests_settled`, the episodes with no open request (the start consumes it; a
 * `--baseline` before that marks it `completed`), and `requests_at_most_one`, the episodes
 * requested at most once.
 */
export function requestChecksSql(episodes: string): string {
  return `(SELECT count(*) FROM ${episodes} e
    WHERE NOT EXISTS (SELECT 1 FROM cyclium_trigger_requests r
                       WHERE r.episode_id = e.id AND r.status <> 'completed'))::int
    AS requests_settled,
  (SELECT count(*) FROM ${episodes} e
    WHERE (SELECT count(*) FROM cyclium_trigger_requests r WHERE r.episode_id = e.id) <= 1)::int
    AS requests_at_most_one,`;
}
