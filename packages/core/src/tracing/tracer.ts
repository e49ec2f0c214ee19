import {
  context,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
} from "@opentelemetry/api";

/**
 * Core traces through `@opentelemetry/api` only: an app that registers an SDK (apps/worker,
 * apps/web, see docs/tracing.md) gets the spans; without one the API hands out its no-op tracer,
 * whose spans record nothing and allocate no ids, so tracing off costs a few function calls.
 */
export const TRACER_NAME = "cyclium";

/** Span names, one per unit of work the SPEC names. */
export const SPAN_NAMES = {
  fire: "cyclium.fire",
  triggerRequest: "cyclium.trigger_request.write",
  claim: "cyclium.claim.acquire",
  episode: "cyclium.episode.run",
  step: "cyclium.step",
  recoverySweep: "cyclium.recovery.sweep",
  triggerFiring: "cyclium.trigger.fire",
} as const;

/** Semantic attribute names, prefixed `cyclium.`. */
export const SPAN_ATTRIBUTES = {
  episodeId: "cyclium.episode.id",
  actor: "cyclium.actor",
  expectation: "cyclium.expectation",
  attempt: "cyclium.attempt",
  node: "cyclium.node",
  triggerType: "cyclium.trigger.type",
  trigger: "cyclium.trigger.name",
  requestId: "cyclium.trigger_request.id",
  step: "cyclium.step.number",
  stepOutcome: "cyclium.step.outcome",
  fanOut: "cyclium.trigger.fan_out",
  recovered: "cyclium.episode.recovered",
  claimOutcome: "cyclium.claim.outcome",
  stale: "cyclium.recovery.stale",
  restarted: "cyclium.recovery.restarted",
} as const;

export function cycliumTracer() {
  // Looked up per call: the API's proxy tracer resolves to whatever provider is registered now,
  // so an SDK registered after core was imported still gets every span.
  return trace.getTracer(TRACER_NAME);
}

export interface SpanOptions {
  attributes?: Attributes;
  /** The parent; the active context when omitted. */
  parent?: Context;
  links?: Link[];
  kind?: SpanKind;
}

/** Starts a span that the caller ends (for spans that do not wrap one function). */
export function startSpan(name: string, options: SpanOptions = {}): Span {
  return cycliumTracer().startSpan(
    name,
    {
      kind: options.kind ?? SpanKind.INTERNAL,
      ...(options.attributes ? { attributes: options.attributes } : {}),
      ...(options.links ? { links: options.links } : {}),
    },
    options.parent ?? context.active(),
  );
}

/**
 * Runs `fn` inside a new active span (children started in it, e.g. the trigger request inside a
 * fire, nest under it), records a thrown error on the span and ends it.
 */
export async function inSpan<T>(
  name: string,
  options: SpanOptions,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const span = startSpan(name, options);
  const parent = options.parent ?? context.active();
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (error) {
    recordError(span, error);
    throw error;
  } finally {
    span.end();
  }
}

export function activeContext(): Context {
  return context.active();
}

/** `parent` with `span` as its active span (the parent of spans started in it). */
export function withSpan(parent: Context, span: Span): Context {
  return trace.setSpan(parent, span);
}

/** Runs `fn` with `ctx` active, so spans a strategy starts nest under its step. */
export function runInContext<T>(ctx: Context, fn: () => T): T {
  return context.with(ctx, fn);
}

export function recordError(span: Span, error: unknown): void {
  if (!span.isRecording()) return;
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
}

export { SpanKind, type Span, type Context };
