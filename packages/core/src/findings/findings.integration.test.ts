import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEpisode } from "../episodes/index";
import { Telemetry } from "../telemetry/index";
import { createFindings } from "./findings";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.drop();
});

async function rows(findingKey: string) {
  const { rows } = await db.pool.query<{ id: string; status: string; env: string | null }>(
    "SELECT id, status, env FROM cyclium_findings WHERE finding_key = $1 ORDER BY status, env NULLS FIRST",
    [findingKey],
  );
  return rows;
}

const breach = { class: "limit_breach", severity: "critical", subject: "db-1" };

describe("findings", () => {
  it("keeps one active finding when the same key is raised twice in one env", async () => {
    const findings = createFindings({ db: db.pool, env: "rc" });
    const first = await findings.raise({ ...breach, findingKey: "breach:db-1", summary: "93%" });
    const second = await findings.raise({ ...breach, findingKey: "breach:db-1", summary: "97%" });
    expect(first.kind).toBe("created");
    expect(second.kind).toBe("updated");
    expect(second.finding).toMatchObject({
      id: first.finding.id,
      summary: "97%",
      raisedCount: 2,
      env: "rc",
      status: "active",
    });
    expect(await rows("breach:db-1")).toHaveLength(1);
  });

  it("keeps one active finding per env, the unset env included", async () => {
    const key = "breach:db-2";
    for (const env of [null, null, "rc", "demo", "demo"]) {
      await createFindings({ db: db.pool, env }).raise({ ...breach, findingKey: key });
    }
    expect((await rows(key)).map((row) => row.env)).toEqual([null, "demo", "rc"]);
  });

  it("reads the node's env only unless another env is asked for", async () => {
    const key = "breach:db-3";
    for (const env of [null, "rc", "demo"]) {
      await createFindings({ db: db.pool, env }).raise({ ...breach, findingKey: key });
    }
    const rc = createFindings({ db: db.pool, env: "rc" });
    expect((await rc.activeFor({ findingKey: key })).map((f) => f.env)).toEqual(["rc"]);
    expect((await rc.activeFor({ findingKey: key }, { env: null })).map((f) => f.env)).toEqual([
      null,
    ]);
    expect((await rc.activeFor({ findingKey: key }, { env: "demo" })).map((f) => f.env)).toEqual([
      "demo",
    ]);
    const unset = createFindings({ db: db.pool, env: null });
    expect((await unset.activeFor({ findingKey: key })).map((f) => f.env)).toEqual([null]);
  });

  it("filters by class, severity, subject and actor", async () => {
    const findings = createFindings({ db: db.pool, env: "filters" });
    await findings.raise({
      findingKey: "f:1",
      class: "limit_breach",
      severity: "critical",
      subject: "a",
    });
    await findings.raise({ findingKey: "f:2", class: "drift", severity: "warning", subject: "b" });
    await findings.raise({ findingKey: "f:3", class: "stale", severity: "info", subject: "a" });
    const keys = async (filters: Parameters<typeof findings.activeFor>[0]) =>
      (await findings.activeFor(filters)).map((f) => f.findingKey).sort();
    expect(await keys({})).toEqual(["f:1", "f:2", "f:3"]);
    expect(await keys({ class: "drift" })).toEqual(["f:2"]);
    expect(await keys({ class: ["drift", "stale"] })).toEqual(["f:2", "f:3"]);
    expect(await keys({ severity: ["critical"], subject: "a" })).toEqual(["f:1"]);
    expect(await keys({ subject: "a", limit: 1 })).toHaveLength(1);
    expect(await keys({ actorId: "nobody" })).toEqual([]);
  });

  it("lands a finding in the env of the episode that raised it", async () => {
    const created = await createEpisode(
      {
        actorId: "resource_monitor",
        expectationId: "check_limits",
        triggerType: "manual",
        dedupeKey: null,
        sourceNode: "seed",
        sourceStack: "hatch",
        sourceEnv: "demo",
        jitterMs: 0,
        telemetry: new Telemetry(),
      },
      db.pool,
    );
    if (created.kind !== "created") throw new Error("no episode");
    const rcNode = createFindings({ db: db.pool, env: "rc" });
    const { finding } = await rcNode.raise({
      ...breach,
      findingKey: "breach:db-4",
      episode: created.episode,
    });
    expect(finding).toMatchObject({
      env: "demo",
      episodeId: created.episode.id,
      actorId: "resource_monitor",
    });
    expect(await rcNode.activeFor({ findingKey: "breach:db-4" })).toEqual([]);
    expect(await rcNode.activeFor({ findingKey: "breach:db-4" }, { env: "demo" })).toHaveLength(1);
  });

  it("clears, and a second clear of the same key replaces the previous cleared row", async () => {
    const key = "breach:db-5";
    const findings = createFindings({ db: db.pool, env: null });
    expect(await findings.clear({ findingKey: key })).toEqual({ kind: "not_found" });

    const first = await findings.raise({ ...breach, findingKey: key, summary: "first" });
    const clearedFirst = await findings.clear({ findingKey: key });
    expect(clearedFirst).toMatchObject({
      kind: "cleared",
      finding: { id: first.finding.id, status: "cleared", summary: "first" },
    });
    expect(await findings.activeFor({ findingKey: key })).toEqual([]);

    // Raised again: the old cleared row stays as history beside the new active one.
    const second = await findings.raise({ ...breach, findingKey: key, summary: "second" });
    expect(second.kind).toBe("created");
    expect((await rows(key)).map((row) => row.status)).toEqual(["active", "cleared"]);

    const clearedSecond = await findings.clear({ findingKey: key });
    expect(clearedSecond).toMatchObject({
      kind: "cleared",
      finding: { id: second.finding.id, status: "cleared", summary: "second" },
    });
    expect(await rows(key)).toEqual([{ id: second.finding.id, status: "cleared", env: null }]);
  });

  it("clears only the asked env", async () => {
    const key = "breach:db-6";
    await createFindings({ db: db.pool, env: "rc" }).raise({ ...breach, findingKey: key });
    await createFindings({ db: db.pool, env: null }).raise({ ...breach, findingKey: key });
    const fromRc = createFindings({ db: db.pool, env: "rc" });
    expect((await fromRc.clear({ findingKey: key, env: null })).kind).toBe("cleared");
    expect((await fromRc.activeFor({ findingKey: key })).map((f) => f.env)).toEqual(["rc"]);
  });

  it("clears findings whose ttl ran out", async () => {
    const findings = createFindings({ db: db.pool, env: "ttl" });
    await findings.raise({ ...breach, findingKey: "ttl:short", ttlSeconds: 1 });
    await findings.raise({ ...breach, findingKey: "ttl:long", ttlSeconds: 3600 });
    expect(await findings.clearExpired({ limit: 10 })).toEqual([]);
    await sleep(1100);
    const cleared = await findings.clearExpired({ limit: 10 });
    expect(cleared.map((f) => [f.findingKey, f.status])).toEqual([["ttl:short", "cleared"]]);
    expect((await findings.activeFor()).map((f) => f.findingKey)).toEqual(["ttl:long"]);
    await expect(
      findings.raise({ ...breach, findingKey: "ttl:bad", ttlSeconds: 0 }),
    ).rejects.toThrow(/ttlSeconds/);
  });
});
