import { z } from "zod";

/**
 * The standard OpenTelemetry variables that decide whether an app registers the tracing SDK
 * (docs/tracing.md). Core itself only uses `@opentelemetry/api`; the apps read these through
 * their env module and start the SDK when `tracingExporterFromEnv` says so. The SDK reads the
 * rest of the `OTEL_*` family (headers, protocol, batch sizes, resource attributes) itself.
 */
export const ZTracingEnv = z.object({
  /** `true` switches the SDK off whatever else is set. */
  OTEL_SDK_DISABLED: z.stringbool().default(false),
  /** `otlp`, `console` or `none`; unset: `otlp` when an OTLP endpoint is set, else off. */
  OTEL_TRACES_EXPORTER: z.enum(["otlp", "console", "none"]).optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url().optional(),
  /** The `service.name` of the spans; each app has its own default. */
  OTEL_SERVICE_NAME: z.string().trim().min(1).optional(),
});

export type TTracingEnv = z.infer<typeof ZTracingEnv>;

/**
 * Which exporter the app starts, or `none`: off unless a variable asks for traces, so a worker
 * started without any `OTEL_*` pays nothing (the API's no-op tracer).
 */
export function tracingExporterFromEnv(env: TTracingEnv): "otlp" | "console" | "none" {
  if (env.OTEL_SDK_DISABLED) return "none";
  if (env.OTEL_TRACES_EXPORTER !== undefined) return env.OTEL_TRACES_EXPORTER;
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return endpoint === undefined ? "none" : "otlp";
}
