-- OpenTelemetry traces (issue 17 item 1): the W3C trace context (`traceparent`, `tracestate`) of
-- the span that wrote the row, so the worker that runs an episode continues the trace of the fire
-- that created it. On an episode, `run` also holds the traceparent of the latest attempt's run
-- span, written with its start, so a recovered attempt links to the killed one. NULL when no
-- tracing SDK was registered where the row was written: nothing is stored then.
ALTER TABLE "cyclium_trigger_requests" ADD COLUMN "trace_context" JSONB;
ALTER TABLE "cyclium_episodes" ADD COLUMN "trace_context" JSONB;
