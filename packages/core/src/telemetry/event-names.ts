/**
 * Every telemetry event core emits. The SPEC (section 9) fixes the names that dashboards and
 * alerts depend on; the rest are core's own additions, marked below.
 */
export const TELEMETRY_EVENTS = [
  "cyclium.work_claims.acquired",
  "cyclium.work_claims.steal",
  "cyclium.work_claims.busy",
  "cyclium.work_claims.renewed",
  "cyclium.work_claims.renew_failed",
  "cyclium.work_claims.completed",
  "cyclium.work_claims.failed",
  // core: lapsed claims marked `expired` by reclaimExpired.
  "cyclium.work_claims.expired",
  "cyclium.recovery.sweep",
  // core: pending episodes of a gone node's queue re-owned by a live node.
  "cyclium.recovery.adopted",
  "cyclium.episode.started",
  "cyclium.episode.completed",
  "cyclium.episode.failed",
  // core: an insert that lost the dedupe race (another node created the episode).
  "cyclium.episode.deduped",
  // core: a zombie's step or final-status write rejected because its attempt is stale.
  "cyclium.episode.fenced",
  // core: a start, step, checkpoint or end write resent after a transient database error.
  "cyclium.episode.write_retry",
  "cyclium.trigger_request.created",
  "cyclium.trigger_request.dispatched",
  "cyclium.trigger_request.expired",
  "cyclium.trigger.fired",
  "cyclium.trigger.skipped",
  // core: an event trigger's circuit breaker changed state as this node saw it (SPEC 12).
  "cyclium.circuit_breaker.opened",
  "cyclium.circuit_breaker.half_open",
  "cyclium.circuit_breaker.closed",
  // core: active findings cleared by the expiry sweep (SPEC 12).
  "cyclium.findings.expired",
  // issue 20: Cyclium's lifecycle topics, one event per occurrence (bus/lifecycle-topics.ts).
  "cyclium.episode.queued",
  "cyclium.episode.dropped",
  "cyclium.expectation.triggered",
  "cyclium.actor.overflow",
  "cyclium.circuit_breaker.rejected",
  "cyclium.finding.raised",
  "cyclium.finding.cleared",
  "cyclium.finding.expired",
  "cyclium.workflow.started",
  "cyclium.workflow.completed",
  "cyclium.workflow.failed",
  // SPEC 14: one pruner run (measurements: rows removed per table family, batches, duration_ms)
  // and the rows it removed in all.
  "cyclium.pruner.run",
  "cyclium.pruner.deleted",
  // SPEC section 16: a start a cluster-wide limit refused, per reason.
  "cyclium.episode.concurrency_limited",
  "cyclium.episode.rate_limited",
] as const;

export type TelemetryEventName = (typeof TELEMETRY_EVENTS)[number];

/** `cyclium.work_claims.acquired` -> `cyclium_work_claims_acquired` (Prometheus-safe). */
export function metricBaseName(event: TelemetryEventName): string {
  return event.replace(/[^a-zA-Z0-9_]/g, "_");
}
