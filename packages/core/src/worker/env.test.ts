import { describe, expect, it } from "vitest";
import { ZWorkerEnv, workerSettingsFromEnv } from "./env";

describe("workerSettingsFromEnv", () => {
  it("applies the SPEC's defaults (sections 5, 9 and 13) to an empty environment", () => {
    const env = ZWorkerEnv.parse({});
    expect(env.CYCLIUM_DEPLOYMENT).toBe("@cyclium/demo");
    expect(workerSettingsFromEnv(env)).toMatchObject({
      migrate: true,
      mode: "full",
      workClaims: "postgres",
      leaseSeconds: 120,
      poller: { enabled: true, intervalMs: 5_000, sourceStack: null, sourceEnv: null },
      recovery: { delayMs: 120_000, intervalMs: 60_000, staleAfterMs: 120_000 },
      claimsExpiry: { intervalMs: 60_000 },
      port: 4000,
    });
  });

  it("takes the poller's source env from CYCLIUM_ENV unless set apart", () => {
    const settings = workerSettingsFromEnv(
      ZWorkerEnv.parse({ CYCLIUM_ENV: "rc", CYCLIUM_TRIGGER_POLLER: "false" }),
    );
    expect(settings).toMatchObject({ env: "rc", poller: { enabled: false, sourceEnv: "rc" } });
    expect(ZWorkerEnv.safeParse({ CYCLIUM_TRIGGER_POLL_INTERVAL_MS: "soon" }).success).toBe(false);
    expect(workerSettingsFromEnv(ZWorkerEnv.parse({ CYCLIUM_MIGRATE: "false" }))).toMatchObject({
      migrate: false,
    });
  });
});
