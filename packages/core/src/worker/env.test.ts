import { describe, expect, it } from "vitest";
import { defineDeployment } from "../deployment/index";
import { resolveWorkerSettings, ZWorkerEnv, workerSettingsFromEnv } from "./env";

describe("workerSettingsFromEnv", () => {
  it("applies the SPEC's defaults (sections 5, 9 and 13) to an empty environment", () => {
    const env = ZWorkerEnv.parse({});
    expect(env.CYCLIUM_DEPLOYMENT).toBe("@cyclium/demo");
    expect(workerSettingsFromEnv(env)).toMatchObject({
      migrate: true,
      mode: "full",
      workClaims: "postgres",
      leaseSeconds: 120,
      poller: { enabled: true, intervalMs: 15_000, sourceStack: null, sourceEnv: undefined },
      recovery: { delayMs: 120_000, intervalMs: 60_000, staleAfterMs: 120_000 },
      claimsExpiry: { intervalMs: 60_000 },
      port: 4000,
    });
  });

  it("leaves the poller's source env to the node's env unless set apart", () => {
    const settings = workerSettingsFromEnv(
      ZWorkerEnv.parse({ CYCLIUM_ENV: "rc", CYCLIUM_TRIGGER_POLLER: "false" }),
    );
    expect(settings).toMatchObject({ env: "rc", poller: { enabled: false } });
    expect(settings.poller?.sourceEnv).toBeUndefined();
    expect(ZWorkerEnv.safeParse({ CYCLIUM_TRIGGER_POLL_INTERVAL_MS: "soon" }).success).toBe(false);
    expect(workerSettingsFromEnv(ZWorkerEnv.parse({ CYCLIUM_MIGRATE: "false" }))).toMatchObject({
      migrate: false,
    });
  });
});

describe("resolveWorkerSettings", () => {
  const deployment = defineDeployment({ actors: [] });
  const source = {
    DATABASE_URL: "postgres://app@db/app",
    PORT: "4100",
    CYCLIUM_NODE_IDENTITY: "worker-a",
    CYCLIUM_ENV: "rc",
    CYCLIUM_STACK_SLUG: "blue",
    CYCLIUM_MIGRATE: "false",
    CYCLIUM_TRIGGER_POLL_INTERVAL_MS: "750",
    CYCLIUM_RECOVERY_DELAY_MS: "1000",
  };

  it("reads the environment for every option not given", () => {
    expect(resolveWorkerSettings({ deployment }, source)).toMatchObject({
      databaseUrl: "postgres://app@db/app",
      port: 4100,
      nodeIdentity: "worker-a",
      env: "rc",
      stack: "blue",
      migrate: false,
      poller: { enabled: true, intervalMs: 750 },
      recovery: { delayMs: 1000, intervalMs: 60_000 },
    });
  });

  it("lets an explicit option win over its variable, key by key in nested settings", () => {
    const resolver = () => "from-resolver";
    const settings = resolveWorkerSettings(
      {
        deployment,
        port: 0,
        nodeIdentity: resolver,
        migrate: undefined,
        poller: { enabled: false },
        recovery: { intervalMs: 5_000 },
      },
      source,
    );
    expect(settings).toMatchObject({
      port: 0,
      nodeIdentity: resolver,
      migrate: false,
      poller: { enabled: false, intervalMs: 750 },
      recovery: { delayMs: 1000, intervalMs: 5_000 },
    });
    expect(resolveWorkerSettings({ deployment, recovery: false }, source).recovery).toBe(false);
  });

  it("reads nothing when told not to", () => {
    expect(resolveWorkerSettings({ deployment, port: 1 }, false)).toEqual({ deployment, port: 1 });
  });
});
