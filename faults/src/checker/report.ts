import type { ScenarioReport } from "./run-facts";

const COLUMNS = [
  "attempted",
  "acknowledged",
  "lost",
  "duplicated",
  "fenced",
  "recovered",
  "unknown",
] as const;

/**
 * The Jepsen-style table (one row per scenario: attempted, acknowledged, lost, duplicated, fenced
 * writes, recovered, unknown, verdict), then per scenario its own figures and any violation.
 */
export function toMarkdown(reports: readonly ScenarioReport[], command: string): string {
  const header = `| scenario | ${COLUMNS.map((c) => (c === "fenced" ? "fenced writes" : c)).join(" | ")} | result |`;
  const rule = `|${"---|".repeat(COLUMNS.length + 2)}`;
  const rows = reports.map(
    (r) =>
      `| ${r.id} ${r.name} | ${COLUMNS.map((c) => String(r.counts[c])).join(" | ")} | ${r.passed ? "pass" : "**FAIL**"} |`,
  );
  const sections = reports.map((r) => {
    const details = Object.entries(r.details)
      .map(([key, value]) => `${key}=${value}`)
      .join(", ");
    const violations = r.violations.map((v) => `  - VIOLATION: ${v}`).join("\n");
    return `- **${r.id} ${r.name}**: ${details}${violations ? `\n${violations}` : ""}`;
  });
  return [`Command: \`${command}\``, "", header, rule, ...rows, "", ...sections].join("\n");
}
