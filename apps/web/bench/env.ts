// The benchmark's configuration (the one bench module that reads process.env).
import { z } from "zod";

const ZBenchEnv = z.object({
  /** A PostgreSQL server to create the bench database on; unset: the embedded test server. */
  DATABASE_URL: z.string().min(1).optional(),
  BENCH_EPISODES: z.coerce.number().int().min(1_000).default(1_000_000),
  BENCH_RUNS: z.coerce.number().int().min(3).default(25),
  /** Print the plan of each combination (EXPLAIN ANALYZE of one run). */
  BENCH_EXPLAIN: z.stringbool().default(false),
});

export type TBenchEnv = z.infer<typeof ZBenchEnv>;

export function readBenchEnv(): TBenchEnv {
  return ZBenchEnv.parse(process.env);
}
