// The OpenTelemetry SDK for the console (docs/tracing.md), the twin of apps/worker/src/tracing.ts:
// core's spans (a fire, its trigger request, the console node's sweeps and trigger firings) go
// to the provider registered here, and the worker continues each fire's trace from the context
// stored with its request. Off unless an OTEL_* variable asks for traces.
import { tracingExporterFromEnv, type TTracingEnv } from "@cyclium/core/console";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from "@opentelemetry/resources";
import { BatchSpanProcessor, ConsoleSpanExporter } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";

/** Registers the tracer provider when tracing is on; true when it did. */
export function startTracing(env: TTracingEnv): boolean {
  const kind = tracingExporterFromEnv(env);
  if (kind === "none") return false;
  const exporter = kind === "otlp" ? new OTLPTraceExporter() : new ConsoleSpanExporter();
  const provider = new NodeTracerProvider({
    resource: defaultResource()
      .merge(resourceFromAttributes({ "service.name": "cyclium-web" }))
      .merge(detectResources({ detectors: [envDetector] })),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  provider.register();
  // A console is stopped by its platform; export what is batched before the process goes.
  process.once("SIGTERM", () => void provider.forceFlush());
  return true;
}
