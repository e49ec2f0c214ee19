import { describe, expect, it } from "vitest";
import { defineActor } from "../actors/index";
import { isCycliumError } from "../errors/index";
import { noopStrategy } from "../runtime/testing/index";
import { defineTrigger } from "../triggers/index";
import { defineWorkflow } from "../workflows/index";
import { defineDeployment, isDeployment } from "./define-deployment";

const actor = (identifier: string, expectation = "run") =>
  defineActor({
    identifier,
    expectations: [{ id: expectation, strategy: noopStrategy, trigger: { manual: true } }],
  });

const twoSteps = defineWorkflow({
  name: "two_steps",
  steps: [
    { name: "first", actor: "alpha", expectation: "run" },
    { name: "second", actor: "beta", expectation: "run", dependsOn: ["first"] },
  ],
  triggers: ["nightly"],
});
const nightly = defineTrigger({ name: "nightly", on: "two_steps", cron: "0 3 * * *" });

function errorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isCycliumError(error, "invalid_config")) return error.message;
    throw error;
  }
  throw new Error("expected an invalid_config error");
}

describe("defineDeployment", () => {
  it("builds the registries of a valid deployment", () => {
    const deployment = defineDeployment({
      actors: [actor("alpha"), actor("beta")],
      strategies: { noop: noopStrategy },
      workflows: [twoSteps],
      triggers: [nightly],
    });
    expect(isDeployment(deployment)).toBe(true);
    expect(isDeployment({ ...deployment })).toBe(false);
    expect(deployment.actors.map((a) => a.identifier)).toEqual(["alpha", "beta"]);
    expect(deployment.workflows.get("two_steps")).toBe(twoSteps);
    expect(deployment.workflows.subscribersOf("nightly")).toEqual([twoSteps]);
    expect(deployment.triggers.get("nightly")).toBe(nightly);
    expect(Object.keys(deployment.strategies)).toEqual(["noop"]);
  });

  it("accepts actors alone", () => {
    const deployment = defineDeployment({ actors: [actor("alpha")] });
    expect(deployment.workflows.list()).toEqual([]);
    expect(deployment.triggers.list()).toEqual([]);
  });

  it("rejects an actor id declared twice", () => {
    expect(errorOf(() => defineDeployment({ actors: [actor("alpha"), actor("alpha")] }))).toMatch(
      /actors\.1\.identifier: actor "alpha" is declared twice/,
    );
  });

  it("rejects workflow steps naming an unknown actor or expectation", () => {
    const message = errorOf(() =>
      defineDeployment({
        actors: [actor("alpha", "other")],
        workflows: [twoSteps],
        triggers: [nightly],
      }),
    );
    expect(message).toContain('names expectation "run", which actor "alpha" does not have');
    expect(message).toContain('step "second" of workflow "two_steps" names unknown actor "beta"');
  });

  it("rejects duplicate trigger names, unknown workflows and unknown subscriptions", () => {
    const orphan = defineTrigger({ name: "nightly", on: "missing", cron: "0 4 * * *" });
    const message = errorOf(() =>
      defineDeployment({
        actors: [actor("alpha"), actor("beta")],
        workflows: [twoSteps],
        triggers: [nightly, orphan],
      }),
    );
    expect(message).toContain('triggers.1.name: trigger "nightly" is declared twice');
    expect(message).toContain('trigger "nightly" starts unknown workflow "missing"');
    expect(
      errorOf(() =>
        defineDeployment({ actors: [actor("alpha"), actor("beta")], workflows: [twoSteps] }),
      ),
    ).toContain('workflow "two_steps" subscribes to unknown trigger "nightly"');
  });
});
