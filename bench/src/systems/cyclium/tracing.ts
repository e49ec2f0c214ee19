import {
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";

/**
 * The `cyclium-traced` system: the SDK as apps/worker registers it (NodeTracerProvider, batch
 * processor), exporting to an in-process exporter that counts and drops the spans, so the figure
 * is what creating, recording, batching and handing over the spans costs, without a collector's
 * network time.
 */
export function registerBenchTracing(): { shutdown(): Promise<void> } {
  const provider = new NodeTracerProvider({
    spanProcessors: [new BatchSpanProcessor(new DroppingExporter())],
  });
  provider.register();
  return { shutdown: () => provider.shutdown() };
}

class DroppingExporter implements SpanExporter {
  exported = 0;

  export(spans: ReadableSpan[], done: Parameters<SpanExporter["export"]>[1]): void {
    this.exported += spans.length;
    // ExportResultCode.SUCCESS (from @opentelemetry/core, which the bench does not depend on).
    done({ code: 0 });
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
