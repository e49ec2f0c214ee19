import { getNodeInfo } from "@/server/node-info";
import { getWebMetricsRegistry } from "@/server/metrics/web-metrics";

// Scraped by Prometheus like a worker's /metrics; never cached, never prerendered at build.
export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const registry = getWebMetricsRegistry();
  registry.setDefaultLabels({ node: getNodeInfo().identity });
  try {
    return new Response(await registry.metrics(), {
      headers: { "content-type": registry.contentType, "cache-control": "no-store" },
    });
  } catch (error) {
    console.error("GET /metrics: collection failed", error);
    return new Response("metrics collection failed\n", { status: 500 });
  }
}
