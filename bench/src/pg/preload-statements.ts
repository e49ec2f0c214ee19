import pg from "pg";

/**
 * pg_stat_statements needs `shared_preload_libraries`, which only a restart applies. The embedded
 * cluster (`.data/pg-bench`, the bench's own) gets it once with ALTER SYSTEM; when this run
 * started the cluster and nobody else is connected, the caller restarts it at once, otherwise the
 * setting applies from the next start and this run counts round trips instead.
 */
export async function preloadStatements(
  url: string,
): Promise<"loaded" | "restart" | "next start" | "failed"> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ libs: string }>(
      "SELECT current_setting('shared_preload_libraries') AS libs",
    );
    const libs = (rows[0]?.libs ?? "")
      .split(",")
      .map((lib) => lib.trim())
      .filter(Boolean);
    if (libs.includes("pg_stat_statements")) return "loaded";
    const others = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`,
    );
    const value = [...libs, "pg_stat_statements"].join(",");
    await client.query(`ALTER SYSTEM SET shared_preload_libraries = ${pg.escapeLiteral(value)}`);
    return (others.rows[0]?.n ?? 0) === 0 ? "restart" : "next start";
  } catch {
    return "failed";
  } finally {
    await client.end();
  }
}
