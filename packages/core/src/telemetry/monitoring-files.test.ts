import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { collectDefaultMetrics, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { registerClusterGauges } from "./cluster-gauges";
import { createPrometheusExporter } from "./prometheus-exporter";
import { Telemetry } from "./telemetry";

// The alert rules and the dashboard in deploy/ (docs/monitoring.md) are checked against
// promtool, Debian's `prometheus` package (.ci/run installs it), and against the metrics the
// product really exports, so a renamed metric cannot leave an alert that never fires.
const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));
const RULES = path.join(repoRoot, "deploy/prometheus/cyclium-alerts.yml");
const RULE_TESTS = path.join(repoRoot, "deploy/prometheus/cyclium-alerts.test.yml");
const DASHBOARD = path.join(repoRoot, "deploy/grafana/cyclium-dashboard.json");
const PROMTOOL = ["/usr/bin/promtool", "/usr/local/bin/promtool"].find((p) => fs.existsSync(p));
if (PROMTOOL === undefined) {
  console.warn("SKIPPED promtool checks: no promtool (apt-get install prometheus; .ci/run does)");
}

function promtool(...args: string[]): string {
  return execFileSync(PROMTOOL ?? "promtool", args, { encoding: "utf8", stdio: "pipe" });
}

/** Every series name a worker's /metrics can carry once each kind of event has happened. */
function exportedMetricNames(): Set<string> {
  const telemetry = new Telemetry();
  const registry = new Registry();
  // What runWorker registers: process metrics, the exporter, the cluster gauges.
  collectDefaultMetrics({ register: registry });
  createPrometheusExporter({ telemetry, registry });
  // The gauges are only declared here: no scrape runs, so the pool never connects.
  registerClusterGauges({ db: new pg.Pool(), registry });
  // The measurements the recovery sweep and a claim acquire carry, as they emit them.
  telemetry.emit("cyclium.recovery.sweep", {
    count: 1,
    found: 0,
    claimed: 0,
    restarted: 0,
    failed: 0,
    skipped: 0,
    duration_ms: 1,
  });
  for (const event of [
    "cyclium.work_claims.acquired",
    "cyclium.episode.completed",
    "cyclium.trigger_request.dispatched",
  ] as const) {
    telemetry.emit(event, { count: 1, duration_ms: 1 });
  }
  const names = new Set<string>();
  for (const metric of registry.getMetricsAsArray()) {
    names.add(metric.name);
    if (metric.name.endsWith("_duration_seconds")) {
      for (const suffix of ["_bucket", "_sum", "_count"]) names.add(`${metric.name}${suffix}`);
    }
  }
  return names;
}

const metricsIn = (expr: string) =>
  [...expr.matchAll(/\b(cyclium_[a-z_]+|process_[a-z_]+)\b/g)].map((match) => match[1] as string);

describe("deploy/prometheus/cyclium-alerts.yml", () => {
  const rules = fs.readFileSync(RULES, "utf8");
  const alerts = [...rules.matchAll(/- alert: (\w+)/g)].map((match) => match[1] as string);

  it("alerts on the seed's conditions and the product's own, over exported metrics only", () => {
    expect(alerts.sort()).toEqual([
      "CycliumCircuitBreakerOpen",
      "CycliumClaimRenewFailed",
      "CycliumClaimSteals",
      "CycliumEpisodesFailing",
      "CycliumNodeNotSeen",
      "CycliumRecoveryOrphanedEpisodes",
      "CycliumRequestsPendingWithoutFullWorker",
      "CycliumTriggerCircuitBreakerOpen",
    ]);
    const exported = exportedMetricNames();
    const used = metricsIn(rules.replace(/^\s*#.*$/gm, ""));
    expect(used.length).toBeGreaterThanOrEqual(alerts.length);
    expect(used.filter((name) => !exported.has(name))).toEqual([]);
  });

  it("has a case where each alert fires and one where it stays silent", () => {
    const tests = fs.readFileSync(RULE_TESTS, "utf8");
    const cases = [...tests.matchAll(/alertname: (\w+)\n\s+exp_alerts:( \[\])?/g)];
    for (const alert of alerts) {
      const own = cases.filter((match) => match[1] === alert);
      expect(
        own.some((match) => match[2] === undefined),
        `${alert} fires`,
      ).toBe(true);
      expect(
        own.some((match) => match[2] !== undefined),
        `${alert} stays silent`,
      ).toBe(true);
    }
  });

  it.skipIf(PROMTOOL === undefined)("passes promtool check rules and promtool test rules", () => {
    expect(promtool("check", "rules", RULES)).toContain(`SUCCESS: ${alerts.length} rules found`);
    expect(promtool("test", "rules", RULE_TESTS)).toContain("SUCCESS");
  });
});

describe("deploy/grafana/cyclium-dashboard.json", () => {
  const dashboard = JSON.parse(fs.readFileSync(DASHBOARD, "utf8")) as {
    uid: string;
    panels: { type: string; title: string; targets?: { expr: string }[] }[];
  };
  const exprs = dashboard.panels.flatMap((panel) => panel.targets ?? []).map((t) => t.expr);

  it("charts the alert conditions and queries only exported metrics", () => {
    expect(dashboard.uid).toBe("cyclium-overview");
    const used = exprs.flatMap(metricsIn);
    for (const name of [
      "cyclium_work_claims_steal_total",
      "cyclium_work_claims_renew_failed_total",
      "cyclium_trigger_requests_oldest_pending_seconds",
      "cyclium_circuit_breaker_state",
      "cyclium_node_last_seen_seconds",
    ]) {
      expect(used).toContain(name);
    }
    const exported = exportedMetricNames();
    expect(used.filter((name) => !exported.has(name))).toEqual([]);
  });

  it.skipIf(PROMTOOL === undefined)("has queries PromQL parses (checked by promtool)", () => {
    // Grafana's variables replaced by what they stand for, each query a recording rule.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cyclium-dashboard-"));
    const file = path.join(dir, "dashboard-queries.yml");
    const records = exprs.map((expr, i) => {
      const promql = expr.replaceAll("$__rate_interval", "5m").replaceAll("$job", ".*");
      return `      - record: dashboard_query_${i}\n        expr: ${JSON.stringify(promql)}`;
    });
    fs.writeFileSync(file, `groups:\n  - name: dashboard\n    rules:\n${records.join("\n")}\n`);
    try {
      expect(promtool("check", "rules", file)).toContain(`SUCCESS: ${exprs.length} rules found`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
