import { assertColumn, type SqlParams } from "./sql-params";

/**
 * Env scoping (SPEC section 8) is strict: a row belongs to exactly one env, and the unset env
 * (NULL) is an env of its own, so NULL matches NULL only. This is `column IS NOT DISTINCT FROM
 * $n`, written as `IS NULL` / `= $n` because PostgreSQL can use an index for those two forms and
 * not for IS NOT DISTINCT FROM (e.g. cyclium_episodes_source_env_inserted_at_id_idx).
 */
export function envScopeSql(column: string, env: string | null, params: SqlParams): string {
  assertColumn(column);
  if (env === null) return `${column} IS NULL`;
  return `${column} = ${params.add(env)}`;
}
