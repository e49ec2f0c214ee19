import { describe, expect, it } from "vitest";
import { planCronTurn, planPollTurn } from "../turns/index";
import {
  defineTrigger,
  type CatchUpPolicy,
  type CronTriggerDefinition,
  type PollTriggerDefinition,
} from "./trigger-definition";

const hourly = (catchUp: CatchUpPolicy, catchUpLimit?: number) =>
  defineTrigger({
    name: "h",
    on: "w",
    cron: "0 * * * *",
    catchUp,
    ...(catchUpLimit === undefined ? {} : { catchUpLimit }),
  }) as CronTriggerDefinition;
const at = (iso: string) => new Date(iso);

describe("planCronTurn", () => {
  it("is not due before next_fire_at", () => {
    expect(
      planCronTurn(hourly("skip"), at("2026-01-01T10:00:00Z"), at("2026-01-01T09:59:59Z")),
    ).toBeNull();
  });

  it("fires an on-time window and moves to the next one", () => {
    const turn = planCronTurn(
      hourly("skip"),
      at("2026-01-01T10:00:00Z"),
      at("2026-01-01T10:00:00.800Z"),
    );
    expect(turn).toEqual({
      due: at("2026-01-01T10:00:00Z"),
      fire: at("2026-01-01T10:00:00Z"),
      fires: [at("2026-01-01T10:00:00Z")],
      next: at("2026-01-01T11:00:00Z"),
      missed: 0,
    });
  });

  it("skip: windows missed while no node ran do not fire, and there is no burst", () => {
    const turn = planCronTurn(
      hourly("skip"),
      at("2026-01-01T10:00:00Z"),
      at("2026-01-01T13:30:00Z"),
    );
    expect(turn).toMatchObject({ fire: null, next: at("2026-01-01T14:00:00Z"), missed: 4 });
  });

  it("skip: the newest window still fires when it is on time, older ones are dropped", () => {
    const turn = planCronTurn(
      hourly("skip"),
      at("2026-01-01T10:00:00Z"),
      at("2026-01-01T13:00:20Z"),
    );
    expect(turn).toMatchObject({ fire: at("2026-01-01T13:00:00Z"), missed: 3 });
  });

  it("latest: the newest missed window fires once", () => {
    const turn = planCronTurn(
      hourly("latest"),
      at("2026-01-01T10:00:00Z"),
      at("2026-01-01T13:30:00Z"),
    );
    expect(turn).toMatchObject({
      fire: at("2026-01-01T13:00:00Z"),
      next: at("2026-01-01T14:00:00Z"),
      missed: 3,
    });
  });

  it("run_all: every missed window fires once, oldest first, and no further than now", () => {
    const turn = planCronTurn(
      hourly("run_all"),
      at("2026-01-01T10:00:00Z"),
      at("2026-01-01T13:30:00Z"),
    );
    expect(turn).toEqual({
      due: at("2026-01-01T10:00:00Z"),
      fire: at("2026-01-01T13:00:00Z"),
      fires: ["10", "11", "12", "13"].map((hour) => at(`2026-01-01T${hour}:00:00Z`)),
      next: at("2026-01-01T14:00:00Z"),
      missed: 0,
    });
  });

  it("run_all: the cap keeps the oldest windows and counts the rest as missed", () => {
    const turn = planCronTurn(
      hourly("run_all", 2),
      at("2026-01-01T10:00:00Z"),
      at("2026-01-01T13:30:00Z"),
    );
    expect(turn).toMatchObject({
      fire: at("2026-01-01T11:00:00Z"),
      fires: [at("2026-01-01T10:00:00Z"), at("2026-01-01T11:00:00Z")],
      next: at("2026-01-01T14:00:00Z"),
      missed: 2,
    });
    expect(hourly("run_all").catchUpLimit).toBe(100);
  });

  it("initialises a trigger without a next fire time, firing nothing", () => {
    expect(planCronTurn(hourly("skip"), null, at("2026-01-01T10:10:00Z"))).toMatchObject({
      fire: null,
      next: at("2026-01-01T11:00:00Z"),
    });
  });
});

describe("planPollTurn", () => {
  const poll = defineTrigger({
    name: "p",
    on: "w",
    poll: () => true,
    pollIntervalMs: 5_000,
  }) as PollTriggerDefinition;

  it("is due when the interval passed or never ran, and claims the next interval", () => {
    expect(planPollTurn(poll, at("2026-01-01T10:00:05Z"), at("2026-01-01T10:00:01Z"))).toBeNull();
    expect(planPollTurn(poll, null, at("2026-01-01T10:00:01Z"))?.next).toEqual(
      at("2026-01-01T10:00:06Z"),
    );
  });
});

describe("planCronTurn for an interval schedule (issue 20)", () => {
  const everyNinety = (catchUp: CatchUpPolicy) =>
    defineTrigger({ name: "i", on: "w", intervalMs: 90_000, catchUp, catchUpLimit: 3 });

  it("fires the window on the epoch grid and moves to the next one", () => {
    const definition = everyNinety("skip");
    // 10:01:30 is a multiple of 90 s since the epoch; 10:00:00 is one too.
    expect(definition.kind === "interval" && definition.schedule.expression).toBe("@every 90s");
    if (definition.kind !== "interval") throw new Error("an interval definition");
    const turn = planCronTurn(
      definition,
      at("2026-01-01T10:01:30Z"),
      at("2026-01-01T10:01:30.400Z"),
    );
    expect(turn).toEqual({
      due: at("2026-01-01T10:01:30Z"),
      fire: at("2026-01-01T10:01:30Z"),
      fires: [at("2026-01-01T10:01:30Z")],
      next: at("2026-01-01T10:03:00Z"),
      missed: 0,
    });
  });

  it("catches up missed windows by the same policies as cron (run_all capped)", () => {
    const definition = everyNinety("run_all");
    if (definition.kind !== "interval") throw new Error("an interval definition");
    const turn = planCronTurn(definition, at("2026-01-01T10:00:00Z"), at("2026-01-01T10:15:10Z"));
    expect(turn?.fires).toEqual([
      at("2026-01-01T10:00:00Z"),
      at("2026-01-01T10:01:30Z"),
      at("2026-01-01T10:03:00Z"),
    ]);
    expect(turn?.next).toEqual(at("2026-01-01T10:16:30Z"));
    expect(turn?.missed).toBe(8);
  });

  it("refuses an interval under a second", () => {
    expect(() => defineTrigger({ name: "i", on: "w", intervalMs: 500 })).toThrow(/intervalMs/);
  });
});
