import { describe, expect, it } from "vitest";
import { isCycliumError } from "../errors/index";
import { defineWorkflow } from "./workflow-definition";
import { WorkflowRegistry } from "./workflow-registry";

const step = (name: string, dependsOn: string[] = []) => ({
  name,
  actor: "resource_monitor",
  expectation: "check",
  dependsOn,
});

function definitionError(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(isCycliumError(error, "invalid_config")).toBe(true);
    return (error as Error).message;
  }
  throw new Error("expected an error");
}

describe("defineWorkflow", () => {
  it("orders steps after their dependencies and applies defaults", () => {
    const workflow = defineWorkflow({
      name: "review",
      steps: [step("advise", ["check"]), step("check"), step("report", ["advise", "check"])],
      triggers: ["nightly", "nightly"],
    });
    expect(workflow.steps.map((s) => s.name)).toEqual(["check", "advise", "report"]);
    expect(workflow).toMatchObject({
      failurePolicy: "abort",
      maxStepAttempts: 3,
      triggers: ["nightly"],
    });
  });

  it("rejects cycles, self-dependencies, unknown dependencies and duplicate steps", () => {
    expect(
      definitionError(() =>
        defineWorkflow({ name: "w", steps: [step("a", ["b"]), step("b", ["a"]), step("c")] }),
      ),
    ).toMatch(/steps a, b form a dependency cycle/);
    expect(definitionError(() => defineWorkflow({ name: "w", steps: [step("a", ["a"])] }))).toMatch(
      /cycle/,
    );
    expect(
      definitionError(() => defineWorkflow({ name: "w", steps: [step("a", ["missing"])] })),
    ).toMatch(/step "a" depends on unknown step "missing"/);
    expect(
      definitionError(() => defineWorkflow({ name: "w", steps: [step("a"), step("a")] })),
    ).toMatch(/defined twice/);
  });

  it("rejects an empty workflow and bad names", () => {
    expect(definitionError(() => defineWorkflow({ name: "w", steps: [] }))).toMatch(
      /Invalid workflow "w"/,
    );
    expect(definitionError(() => defineWorkflow({ name: "bad name", steps: [step("a")] }))).toMatch(
      /name/,
    );
  });
});

describe("WorkflowRegistry", () => {
  it("finds trigger subscribers and refuses two definitions under one name", () => {
    const a = defineWorkflow({ name: "a", steps: [step("x")], triggers: ["t"] });
    const b = defineWorkflow({ name: "b", steps: [step("x")] });
    const registry = new WorkflowRegistry().register(a, b).register(a);
    expect(registry.subscribersOf("t").map((w) => w.name)).toEqual(["a"]);
    expect(() => registry.register(defineWorkflow({ name: "a", steps: [step("y")] }))).toThrow(
      /registered twice/,
    );
  });
});
