import { parseRetentionAge } from "../../../packages/core/src/retention/index";

/** The soak's knobs: SOAK_MINUTES (30), SOAK_RATE (episodes/s, 50), SOAK_RETENTION (5m). */
export function readSoakEnv(source: NodeJS.ProcessEnv = process.env) {
  const minutes = Number(source.SOAK_MINUTES ?? 30);
  const rate = Number(source.SOAK_RATE ?? 50);
  const retentionText = source.SOAK_RETENTION ?? "5m";
  const retention = parseRetentionAge(retentionText);
  if (!(minutes > 0) || !(rate > 0) || retention.kind !== "age" || retention.ms === null) {
    console.error("SOAK_MINUTES and SOAK_RATE: positive numbers; SOAK_RETENTION: an age (5m)");
    process.exit(2);
  }
  return { minutes, rate, retentionText, retentionMs: retention.ms };
}
