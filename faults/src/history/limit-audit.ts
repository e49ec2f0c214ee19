import pg from "pg";

/**
 * Scenario 11's view from inside the database: a row for every start of the actor's episodes,
 * written by a trigger in the start's own transaction, with how many of the actor's episodes
 * were `running` right then and the keys the started one holds. The start statement holds the
 * limit's lock until it commits (the gate, SPEC section 16), so that count is the database's
 * own at that instant: more than the limit there is the gate's fault; no more there while the
 * workers' histories overlap more is the histories' (their clocks, or a strategy running
 * outside its row's `running`). A test bed table, never the product's.
 */
const INSTALL = (actor: string) => `
CREATE TABLE faults_limit_starts (
  episode_id UUID NOT NULL,
  attempt INT NOT NULL,
  running INT NOT NULL,
  limit_keys TEXT[],
  at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
);
CREATE FUNCTION faults_record_limit_start() RETURNS trigger LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  INSERT INTO faults_limit_starts (episode_id, attempt, running, limit_keys)
  SELECT NEW.id, NEW.attempt, count(*), NEW.limit_keys
    FROM cyclium_episodes WHERE actor_id = NEW.actor_id AND status = 'running';
  RETURN NULL;
END $$;
CREATE TRIGGER faults_limit_start AFTER UPDATE ON cyclium_episodes
  FOR EACH ROW
  WHEN (NEW.actor_id = ${pg.escapeLiteral(actor)} AND NEW.status = 'running'
        AND OLD.status IS DISTINCT FROM 'running')
  EXECUTE FUNCTION faults_record_limit_start();`;

/** Installs the audit of `actor`'s starts in the scenario's database, before any load. */
export async function installLimitAudit(url: string, actor: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(INSTALL(actor));
  } finally {
    await client.end();
  }
}

/** The audit's rows, oldest first; none where it was never installed (every other scenario). */
export async function readLimitStarts(client: pg.Client): Promise<unknown[]> {
  const { rows: present } = await client.query<{ present: boolean }>(
    "SELECT to_regclass('faults_limit_starts') IS NOT NULL AS present",
  );
  if (present[0]?.present !== true) return [];
  const { rows } = await client.query<Record<string, unknown>>(
    `SELECT episode_id, attempt, running, limit_keys,
            (extract(epoch FROM at) * 1000)::float8 AS at
       FROM faults_limit_starts ORDER BY at`,
  );
  return rows;
}
