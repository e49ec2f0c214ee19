/**
 * The work claim an episode runs under (SPEC section 4): its dedupe key, or `episode:{id}` for an
 * episode without one. The one rule: the runner acquires this key, recovery adopts it, and an
 * operator's cancel fails it, so they must never disagree.
 */
export function claimKeyOf(episode: { id: string; dedupeKey: string | null }): string {
  return episode.dedupeKey ?? `episode:${episode.id}`;
}

/** `claimKeyOf` as a SQL expression over a `cyclium_episodes` row, qualified with `alias`. */
export function claimKeySql(alias: string): string {
  return `COALESCE(${alias}.dedupe_key, 'episode:' || ${alias}.id::text)`;
}
