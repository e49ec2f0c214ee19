import { ZCycliumEnv } from "@cyclium/core/worker";
import { z } from "zod";

/**
 * The bench's variables: DATABASE_URL, spelled as every process spells it, and
 * BENCH_WAL_RECORDS, a file to append each drain's WAL per item by relation and record type to.
 */
const ZBenchEnv = ZCycliumEnv.pick({ DATABASE_URL: true }).extend({
  BENCH_WAL_RECORDS: z.string().min(1).optional(),
});

export type TBenchEnv = z.infer<typeof ZBenchEnv>;

/** The bench's configuration from the environment; exits 2 naming a bad variable. */
export function readBenchEnv(source: NodeJS.ProcessEnv = process.env): TBenchEnv {
  const parsed = ZBenchEnv.safeParse({
    DATABASE_URL: source.DATABASE_URL || undefined,
    BENCH_WAL_RECORDS: source.BENCH_WAL_RECORDS || undefined,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      console.error(`Invalid environment variable ${issue.path.join(".")}: ${issue.message}`);
    }
    process.exit(2);
  }
  return parsed.data;
}

/** This process's environment with `extra` on top, for the worker processes the bench starts. */
export function childEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, ...extra };
}
