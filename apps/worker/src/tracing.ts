// The OpenTelemetry SDK for this process (docs/tracing.md). Core traces through
// @opentelemetry/api alone; registering a provider here is what turns its spans on. Off unless
// an OTEL_* variable asks for traces, so a worker without them keeps the API's no-op tracer.
import { tracingExporterFromEnv, type TTracingEnv } from "@cyclium/core/worker";
import type { NodeExtension } from "@cyclium/core/worker";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from "@opentelemetry/resources";
import { BatchSpanProcessor, ConsoleSpanExporter } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";

/**
 * Registers the tracer provider (W3C propagator, async-hooks context) when tracing is on, and
 * returns a node extension that flushes the spans batched so far when the node stops. Extensions
 * stop before running episodes drain, so it flushes rather than shuts the provider down: spans
 * ended during the drain still export if the batch delay (OTEL_BSP_SCHEDULE_DELAY) allows.
 */
export function startTracing(
  env: TTracingEnv,
  service: { name: string; version: string },
): NodeExtension | undefined {
  const kind = tracingExporterFromEnv(env);
  if (kind === "none") return undefined;
  // The exporter reads OTEL_EXPORTER_OTLP_* (endpoint, headers, protocol) and the batch
  // processor OTEL_BSP_* itself; OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (envDetector)
  // win over the defaults below.
  const exporter = kind === "otlp" ? new OTLPTraceExporter() : new ConsoleSpanExporter();
  const provider = new NodeTracerProvider({
    resource: defaultResource()
      .merge(
        resourceFromAttributes({
          "service.name": service.name,
          "service.version": service.version,
        }),
      )
      .merge(detectResources({ detectors: [envDetector] })),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  provider.register();
  return { name: "tracing", start: () => ({ stop: () => provider.forceFlush() }) };
}
