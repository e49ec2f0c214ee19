/**
 * Whether a worker's pool names its statements (CYCLIUM_PREPARED_STATEMENTS): as set, else on
 * unless the LISTEN connection goes elsewhere than `DATABASE_URL`, which means `DATABASE_URL` is a
 * pooler that may not carry named statements (docs/pgbouncer.md).
 */
export function preparedStatementsOn(
  setting: boolean | undefined,
  databaseUrl: string,
  listenDatabaseUrl: string,
): boolean {
  return setting ?? listenDatabaseUrl === databaseUrl;
}
