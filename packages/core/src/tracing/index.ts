export {
  activeContext,
  cycliumTracer,
  inSpan,
  recordError,
  runInContext,
  SPAN_ATTRIBUTES,
  SPAN_NAMES,
  SpanKind,
  startSpan,
  TRACER_NAME,
  withSpan,
  type Context,
  type Span,
  type SpanOptions,
} from "./tracer";
export {
  extractTraceContext,
  injectTraceContext,
  previousRunLink,
  runTraceparent,
  type TraceCarrier,
} from "./trace-context";
