import type { ScenarioReport } from "./run-facts";

const COLUMNS = [
  "attempted",
  "acknowledged",
  "lost",
  "duplicated",
  "stuck",
  "fenced",
  "recovered",
  "unknown",
] as const;

const LEGEND = [
  "_attempted_: client operations (fires by idempotency key, published events); _acknowledged_:",
  "answered ok; _lost_: acknowledged but without an episode that ended as its recovery policy",
  "allows; _duplicated_: more than one episode for one operation, or more than one result for one",
  "episode; _stuck_: episodes left `pending` or `running` once the cluster settled with no live owner",
  "(no open trigger request, not queued by a live node, not executed by one);",
  "_fenced writes_: zombie journal/status writes rejected by the claim's attempt;",
  "_recovered_: recoveries recorded on episodes; _unknown_: operations that got an indeterminate",
  "answer (timeout, lost connection) at least once and were retried with their key.",
].join(" ");

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
  return [`Command: \`${command}\``, "", header, rule, ...rows, "", LEGEND, "", ...sections].join(
    "\n",
  );
}
