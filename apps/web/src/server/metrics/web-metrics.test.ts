import { describe, expect, it } from "vitest";
import { countRefusal, getWebMetricsRegistry, getWebTelemetry } from "./web-metrics";

describe("web metrics", () => {
  it("exports core telemetry, process metrics and refusals in Prometheus text", async () => {
    getWebTelemetry().emit("cyclium.trigger.fired", { count: 1 }, { trigger: "nightly" });
    countRefusal("cross_origin");
    const text = await getWebMetricsRegistry().metrics();
    expect(text).toContain("cyclium_work_claims_acquired_total 0");
    expect(text).toMatch(/cyclium_trigger_fired_total 1/);
    expect(text).toContain('cyclium_web_refusals_total{reason="cross_origin"} 1');
    expect(text).toContain("process_cpu_user_seconds_total");
  });

  it("is one instance per process", () => {
    expect(getWebTelemetry()).toBe(getWebTelemetry());
  });
});
