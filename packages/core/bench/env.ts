import { ZDatabaseUrl } from "../src/config/index";
import { z } from "zod";

const ZBenchEnv = z.object({
  DATABASE_URL: ZDatabaseUrl.optional(),
  BENCH_SECONDS: z.coerce.number().positive().max(60).default(2),
});

export type TBenchEnv = z.infer<typeof ZBenchEnv>;

/** The benchmark's configuration; exits 2 naming a bad variable, like the apps do. */
export function readBenchEnv(source: NodeJS.ProcessEnv = process.env): TBenchEnv {
  const parsed = ZBenchEnv.safeParse({
    DATABASE_URL: source.DATABASE_URL || undefined,
    BENCH_SECONDS: source.BENCH_SECONDS || undefined,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      console.error(`Invalid environment variable ${issue.path.join(".")}: ${issue.message}`);
    }
    process.exit(2);
  }
  return parsed.data;
}
