import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isCycliumError } from "../errors/index";
import { loadDeployment } from "./load-deployment";

const here = path.dirname(fileURLToPath(import.meta.url));

async function errorOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (isCycliumError(error, "invalid_config")) return error.message;
    throw error;
  }
  throw new Error("expected an invalid_config error");
}

describe("loadDeployment", () => {
  it("loads a module by absolute path and by a path relative to the cwd", async () => {
    const absolute = await loadDeployment(path.join(here, "testing/fixture-deployment.ts"));
    expect(absolute.actors.map((actor) => actor.identifier)).toEqual(["fixture_actor"]);
    const relative = await loadDeployment("./testing/fixture-deployment.ts", { cwd: here });
    expect(relative).toBe(absolute);
  });

  it("names a missing module path or package", async () => {
    expect(await errorOf(() => loadDeployment("./testing/nope.ts", { cwd: here }))).toMatch(
      /^CYCLIUM_DEPLOYMENT=\.\/testing\/nope\.ts: no such module/,
    );
    expect(await errorOf(() => loadDeployment("@cyclium/no-such-deployment"))).toMatch(
      /^CYCLIUM_DEPLOYMENT=@cyclium\/no-such-deployment: no such module/,
    );
  });

  it("names a module or package that exports no deployment", async () => {
    expect(
      await errorOf(() => loadDeployment("./testing/fixture-not-a-deployment.ts", { cwd: here })),
    ).toMatch(/exports no deployment \(exports: actors\)/);
    // A real package of the workspace that is not a deployment.
    expect(await errorOf(() => loadDeployment("zod", { cwd: here }))).toMatch(
      /^CYCLIUM_DEPLOYMENT=zod: the module exports no deployment/,
    );
  });
});
