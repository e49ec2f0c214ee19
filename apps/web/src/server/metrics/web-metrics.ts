// Prometheus metrics of the console process (SPEC section 9: `GET /metrics` on every node).
// Kept on globalThis: Next.js bundles instrumentation (where the trigger_only runtime starts)
// apart from the route handlers, so a module-level singleton would exist twice and /metrics
// would read a Telemetry nobody emits into.
import { createPrometheusExporter, Telemetry } from "@cyclium/core/console";
import { collectDefaultMetrics, Counter, Registry } from "prom-client";

interface TWebMetrics {
  telemetry: Telemetry;
  registry: Registry;
  refusals: Counter<"reason">;
}

const globalForMetrics = globalThis as typeof globalThis & { cycliumWebMetrics?: TWebMetrics };

function createWebMetrics(): TWebMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const telemetry = new Telemetry();
  // Every cyclium.* event this process emits, as the worker exports them.
  createPrometheusExporter({ telemetry, registry });
  const refusals = new Counter({
    name: "cyclium_web_refusals_total",
    help: "Requests the console refused: unauthenticated, role, cross_origin, rate_limited.",
    labelNames: ["reason"],
    registers: [registry],
  });
  return { telemetry, registry, refusals };
}

function webMetrics(): TWebMetrics {
  globalForMetrics.cycliumWebMetrics ??= createWebMetrics();
  return globalForMetrics.cycliumWebMetrics;
}

/** The Telemetry the web node's runtime must emit into (pass it to createCycliumNode). */
export function getWebTelemetry(): Telemetry {
  return webMetrics().telemetry;
}

export function getWebMetricsRegistry(): Registry {
  return webMetrics().registry;
}

export function countRefusal(reason: string): void {
  webMetrics().refusals.inc({ reason });
}
