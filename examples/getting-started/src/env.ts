// The example's configuration, read once here; the rest of the code receives plain values.
export const env = {
  /** Unset: the embedded PostgreSQL under .data/ (development only). */
  databaseUrl: process.env.DATABASE_URL,
  /** When the daily report runs (06:00 UTC); six fields, seconds first, are accepted too. */
  reportCron: process.env.REPORT_CRON ?? "0 6 * * *",
  /** The workers' CYCLIUM_ENV: what the client fires must be in their env for them to run it. */
  cycliumEnv: process.env.CYCLIUM_ENV,
};
