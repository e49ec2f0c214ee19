import { describe, expect, it } from "vitest";
import { Telemetry, type TelemetryEvent } from "./telemetry";
import type { Logger } from "./logger";

describe("Telemetry", () => {
  it("delivers events to subscribers, optionally filtered by name", () => {
    const telemetry = new Telemetry();
    const all: TelemetryEvent[] = [];
    const steals: TelemetryEvent[] = [];
    telemetry.subscribe((event) => all.push(event));
    const unsubscribe = telemetry.subscribe((event) => steals.push(event), {
      events: ["cyclium.work_claims.steal"],
    });
    telemetry.emit(
      "cyclium.work_claims.acquired",
      { count: 1, duration_ms: 2 },
      { dedupe_key: "k" },
    );
    telemetry.emit("cyclium.work_claims.steal", { count: 1 }, { dedupe_key: "k", owner_node: "n" });
    unsubscribe();
    telemetry.emit("cyclium.work_claims.steal");
    expect(all.map((e) => e.name)).toEqual([
      "cyclium.work_claims.acquired",
      "cyclium.work_claims.steal",
      "cyclium.work_claims.steal",
    ]);
    expect(steals).toHaveLength(1);
    expect(steals[0]).toMatchObject({
      measurements: { count: 1 },
      metadata: { dedupe_key: "k", owner_node: "n" },
    });
    expect(typeof steals[0]?.at).toBe("number");
  });

  it("isolates emitters from a throwing subscriber", () => {
    const errors: object[] = [];
    const logger: Logger = {
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: (obj) => errors.push(obj),
    };
    const telemetry = new Telemetry(logger);
    const seen: string[] = [];
    telemetry.subscribe(() => {
      throw new Error("bad handler");
    });
    telemetry.subscribe((event) => seen.push(event.name));
    expect(() => telemetry.emit("cyclium.episode.started")).not.toThrow();
    expect(seen).toEqual(["cyclium.episode.started"]);
    expect(errors).toHaveLength(1);
  });
});
