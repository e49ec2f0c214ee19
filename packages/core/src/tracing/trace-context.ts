import {
  context,
  propagation,
  ROOT_CONTEXT,
  trace,
  type Context,
  type Link,
  type Span,
} from "@opentelemetry/api";

/**
 * What `trace_context` columns hold: the W3C headers of the span that wrote the row
 * (`traceparent`, `tracestate` when set) and, on an episode, `run`, the traceparent of its latest
 * attempt's run span.
 */
export type TraceCarrier = Record<string, string>;

/**
 * The active context as a carrier, or null when nothing is traced (no SDK, or no recording span):
 * then nothing is written, so tracing off stores no bytes.
 */
export function injectTraceContext(from: Context = context.active()): TraceCarrier | null {
  if (!trace.getSpan(from)?.isRecording()) return null;
  const carrier: TraceCarrier = {};
  propagation.inject(from, carrier);
  return carrier.traceparent === undefined ? null : carrier;
}

/** The context a stored carrier names (the root context when there is none). */
export function extractTraceContext(carrier: unknown): Context {
  if (!isCarrier(carrier)) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, {
    traceparent: carrier.traceparent,
    ...(carrier.tracestate ? { tracestate: carrier.tracestate } : {}),
  });
}

/** A link to the previous attempt's run span, when the carrier recorded one. */
export function previousRunLink(
  carrier: unknown,
  attributes?: Link["attributes"],
): Link | undefined {
  if (!isCarrier(carrier) || typeof carrier.run !== "string") return undefined;
  const spanContext = trace.getSpanContext(
    propagation.extract(ROOT_CONTEXT, { traceparent: carrier.run }),
  );
  if (spanContext === undefined) return undefined;
  return { context: spanContext, ...(attributes ? { attributes } : {}) };
}

/** The traceparent of a recording span, stored as the episode's `run`; null when not traced. */
export function runTraceparent(span: Span): string | null {
  if (!span.isRecording()) return null;
  const carrier: TraceCarrier = {};
  propagation.inject(trace.setSpan(ROOT_CONTEXT, span), carrier);
  return carrier.traceparent ?? null;
}

function isCarrier(value: unknown): value is TraceCarrier {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { traceparent?: unknown }).traceparent === "string"
  );
}
