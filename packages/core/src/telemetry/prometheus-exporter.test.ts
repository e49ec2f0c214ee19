import { describe, expect, it } from "vitest";
import { createPrometheusExporter } from "./prometheus-exporter";
import { Telemetry } from "./telemetry";

describe("createPrometheusExporter", () => {
  it("exposes every SPEC event as a counter, zero before it happens", async () => {
    const exporter = createPrometheusExporter({ telemetry: new Telemetry() });
    const text = await exporter.metrics();
    for (const name of [
      "cyclium_work_claims_acquired_total",
      "cyclium_work_claims_steal_total",
      "cyclium_work_claims_busy_total",
      "cyclium_work_claims_renewed_total",
      "cyclium_work_claims_renew_failed_total",
      "cyclium_work_claims_completed_total",
      "cyclium_work_claims_failed_total",
      "cyclium_recovery_sweep_total",
      "cyclium_trigger_fired_total",
    ]) {
      expect(text).toContain(`${name} 0`);
    }
  });

  it("counts events, observes durations and sums extra measurements", async () => {
    const telemetry = new Telemetry();
    const exporter = createPrometheusExporter({ telemetry, defaultLabels: { node: "w1" } });
    telemetry.emit("cyclium.work_claims.busy", { count: 1, duration_ms: 3 }, { dedupe_key: "a" });
    telemetry.emit("cyclium.work_claims.busy", { count: 1, duration_ms: 5 }, { dedupe_key: "b" });
    telemetry.emit("cyclium.work_claims.expired", { count: 4 });
    telemetry.emit("cyclium.recovery.sweep", { found: 5, claimed: 2, duration_ms: 40 });
    const text = await exporter.metrics();
    expect(text).toContain('cyclium_work_claims_busy_total{node="w1"} 2');
    expect(text).toContain('cyclium_work_claims_expired_total{node="w1"} 4');
    expect(text).toContain('cyclium_work_claims_busy_duration_seconds_count{node="w1"} 2');
    expect(text).toContain('cyclium_work_claims_busy_duration_seconds_sum{node="w1"} 0.008');
    expect(text).toContain('cyclium_recovery_sweep_total{node="w1"} 1');
    expect(text).toContain('cyclium_recovery_sweep_found_total{node="w1"} 5');
    expect(text).toContain('cyclium_recovery_sweep_claimed_total{node="w1"} 2');
    // Dedupe keys are unbounded: they must never become label values.
    expect(text).not.toContain("dedupe_key");

    exporter.stop();
    telemetry.emit("cyclium.work_claims.busy", { count: 1 });
    expect(await exporter.metrics()).toContain('cyclium_work_claims_busy_total{node="w1"} 2');
  });

  it("labels episode counters and durations by actor and expectation, nothing finer", async () => {
    const telemetry = new Telemetry();
    const exporter = createPrometheusExporter({
      telemetry,
      defaultLabels: { node: "w1" },
      expectations: [{ actor: "billing", expectation: "charge" }],
    });
    // Declared expectations start at 0, so increase() sees their first failure.
    expect(await exporter.metrics()).toContain(
      'cyclium_episode_failed_total{actor="billing",expectation="charge",node="w1"} 0',
    );
    const meta = { episode_id: "e1", actor_id: "billing", expectation_id: "charge" };
    telemetry.emit("cyclium.episode.started", { count: 1 }, meta);
    telemetry.emit(
      "cyclium.episode.failed",
      { count: 1, duration_ms: 20 },
      {
        ...meta,
        error_class: "card_declined",
      },
    );
    telemetry.emit(
      "cyclium.episode.completed",
      { count: 1, duration_ms: 5 },
      {
        ...meta,
        actor_id: "mailer",
        expectation_id: "send",
      },
    );
    const text = await exporter.metrics();
    expect(text).toContain(
      'cyclium_episode_started_total{actor="billing",expectation="charge",node="w1"} 1',
    );
    expect(text).toContain(
      'cyclium_episode_failed_total{actor="billing",expectation="charge",node="w1"} 1',
    );
    expect(text).toContain(
      'cyclium_episode_failed_duration_seconds_count{node="w1",actor="billing",expectation="charge"} 1',
    );
    expect(text).toContain(
      'cyclium_episode_completed_total{actor="mailer",expectation="send",node="w1"} 1',
    );
    expect(text).not.toContain("e1");
    expect(text).not.toContain("card_declined");
  });

  it("keeps each breaker's last seen state in a labelled gauge", async () => {
    const telemetry = new Telemetry();
    const exporter = createPrometheusExporter({ telemetry });
    const meta = { actor_id: "monitor", expectation_id: "on_alert" };
    telemetry.emit("cyclium.circuit_breaker.opened", { count: 1 }, meta);
    telemetry.emit("cyclium.circuit_breaker.opened", { count: 1 }, { ...meta, actor_id: "other" });
    const state = 'cyclium_circuit_breaker_state{actor_id="monitor",expectation_id="on_alert"}';
    expect(await exporter.metrics()).toContain(`${state} 2`);
    telemetry.emit("cyclium.circuit_breaker.half_open", { count: 1 }, meta);
    expect(await exporter.metrics()).toContain(`${state} 1`);
    telemetry.emit("cyclium.circuit_breaker.closed", { count: 1 }, meta);
    const text = await exporter.metrics();
    expect(text).toContain(`${state} 0`);
    expect(text).toContain(
      'cyclium_circuit_breaker_state{actor_id="other",expectation_id="on_alert"} 2',
    );
    // A poll trigger's breaker has its own gauge, by trigger name.
    telemetry.emit("cyclium.circuit_breaker.opened", { count: 1 }, { trigger: "inbox_poll" });
    const after = await exporter.metrics();
    expect(after).toContain('cyclium_trigger_circuit_breaker_state{trigger="inbox_poll"} 2');
    expect(after).not.toContain('actor_id=""');
  });
});
