// Loaded by path in load-deployment.test.ts: a module whose `deployment` export is one.
import { defineActor } from "../../actors/index";
import { noopStrategy } from "../../runtime/testing/index";
import { defineDeployment } from "../define-deployment";

export const deployment = defineDeployment({
  actors: [
    defineActor({
      identifier: "fixture_actor",
      expectations: [{ id: "run", strategy: noopStrategy, trigger: { manual: true } }],
    }),
  ],
});
