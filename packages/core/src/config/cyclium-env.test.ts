import { describe, expect, it } from "vitest";
import { ZWorkerEnv } from "../worker/env";
import { describeEnvIssues, withoutEmptyValues, ZCycliumEnv } from "./index";

describe("ZCycliumEnv", () => {
  it("gives the SPEC's defaults and treats an empty variable as unset", () => {
    const env = ZCycliumEnv.parse(withoutEmptyValues({ CYCLIUM_ENV: "", CYCLIUM_STACK_SLUG: " " }));
    expect(env).toMatchObject({
      CYCLIUM_DEPLOYMENT: "@cyclium/demo",
      CYCLIUM_WORK_CLAIMS: "postgres",
      CYCLIUM_WORK_CLAIMS_LEASE_SECONDS: 120,
      CYCLIUM_STALE_AFTER_MS: 120_000,
    });
    expect(env.CYCLIUM_ENV).toBeUndefined();
    expect(env.CYCLIUM_STACK_SLUG).toBeUndefined();
  });

  it("means the same in every process that extends it (here: the worker's schema)", () => {
    const given = {
      DATABASE_URL: "postgresql://db.internal/cyclium",
      CYCLIUM_ENV: "rc",
      CYCLIUM_WORK_CLAIMS_LEASE_SECONDS: "45",
      CYCLIUM_STALE_AFTER_MS: "90000",
    };
    const shared = ZCycliumEnv.parse(given);
    const worker = ZWorkerEnv.parse(given);
    for (const name of Object.keys(shared) as (keyof typeof shared)[]) {
      expect(worker[name], name).toEqual(shared[name]);
    }
  });

  it("names the variable and the value it refuses", () => {
    const source = { DATABASE_URL: "mysql://nope", CYCLIUM_WORK_CLAIMS_LEASE_SECONDS: "-1" };
    const parsed = ZCycliumEnv.safeParse(source);
    expect(parsed.success).toBe(false);
    const lines = parsed.success ? [] : describeEnvIssues(parsed.error, source);
    expect(lines).toEqual([
      expect.stringMatching(/^Invalid environment variable DATABASE_URL="mysql:\/\/nope": must be/),
      expect.stringMatching(/^Invalid environment variable CYCLIUM_WORK_CLAIMS_LEASE_SECONDS="-1"/),
    ]);
  });
});
