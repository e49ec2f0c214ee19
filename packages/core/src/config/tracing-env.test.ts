import { describe, expect, it } from "vitest";
import { tracingExporterFromEnv, ZTracingEnv } from "./tracing-env";

const exporter = (source: Record<string, string>) =>
  tracingExporterFromEnv(ZTracingEnv.parse(source));

describe("tracingExporterFromEnv", () => {
  it("is off when no OTEL variable asks for traces", () => {
    expect(exporter({})).toBe("none");
    expect(exporter({ OTEL_SERVICE_NAME: "w" })).toBe("none");
  });

  it("exports over OTLP when an endpoint is set, or as OTEL_TRACES_EXPORTER says", () => {
    expect(exporter({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toBe("otlp");
    expect(exporter({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://c:4318/v1/traces" })).toBe(
      "otlp",
    );
    expect(exporter({ OTEL_TRACES_EXPORTER: "console" })).toBe("console");
    expect(
      exporter({ OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" }),
    ).toBe("none");
  });

  it("OTEL_SDK_DISABLED wins", () => {
    expect(exporter({ OTEL_SDK_DISABLED: "true", OTEL_TRACES_EXPORTER: "otlp" })).toBe("none");
  });
});
