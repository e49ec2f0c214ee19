import path from "node:path";
import {
  createScratchProject,
  npm,
  type ScratchProject,
} from "../examples/getting-started/src/testing/scratch-project";
import { expect, submitSignInForm, test } from "./support/fixtures";
import { screenshotsDir } from "./support/paths";
import { signalGroup, startProcess, waitForHttp, type ManagedProcess } from "./support/processes";
import { e2eDatabaseUrl } from "./support/env";
import { createApiToken } from "@cyclium/core/console";
import { freePort } from "@cyclium/db/testing";

// Issue 31's first day, end to end: the packages installed by name from a local registry into
// a project outside the workspace, the guide's deployment compiled there, two workers started
// with the guide's worker and the environment docs/deployment.md shows, and the console installed
// by name (@cyclium/console) and started from that project's directory with its documented
// command, on that deployment (no build for it). An operator fires the team's actor in the browser and sees it complete on a team worker.
// Everything runs in its own env (`team`), so the suite's own worker and console ignore it.
const TEAM_ENV = "team";
/** npx as this node ships it, run by this node (as the scratch project runs npm). */
const NPX_CLI = path.join(path.dirname(process.execPath), "../lib/node_modules/npm/bin/npx-cli.js");
const FIRE = "fire-greeter-greet";

let project: ScratchProject | undefined;
const processes: ManagedProcess[] = [];

test.use({ role: "anonymous" });

test.afterAll(async () => {
  await Promise.all(processes.map((process) => process.stop()));
  await project?.remove();
});

test("a team's console on its own deployment, from its own directory", async ({ page, db }) => {
  test.setTimeout(300_000);
  project = await createScratchProject();
  const dir = project.dir;
  const databaseUrl = e2eDatabaseUrl();
  const shared = { DATABASE_URL: databaseUrl, CYCLIUM_ENV: TEAM_ENV };
  // docs/getting-started.md section 6: the console is one more package of the team's project.
  await npm(dir, ["install", "@cyclium/console"]);
  const consoleBin = path.join(dir, "node_modules/@cyclium/console/dist/bin/cyclium-console.mjs");

  for (const identity of ["team-worker-1", "team-worker-2"]) {
    const port = await freePort();
    const worker = startProcess({
      name: identity,
      command: process.execPath,
      args: ["dist/worker.js"],
      cwd: dir,
      env: {
        ...shared,
        PORT: String(port),
        CYCLIUM_NODE_IDENTITY: identity,
        CYCLIUM_MIGRATE: "false",
        CYCLIUM_TRIGGER_POLL_INTERVAL_MS: "500",
      },
    });
    processes.push(worker);
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, worker);
  }

  const port = await freePort();
  const teamConsole = startProcess({
    name: "team-console",
    command: process.execPath,
    args: [consoleBin, "--port", String(port), "--hostname", "127.0.0.1"],
    cwd: dir,
    env: { ...shared, CYCLIUM_DEPLOYMENT: "./dist/deployment.js" },
  });
  processes.push(teamConsole);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(`${baseUrl}/api/health`, teamConsole);

  // The workers' rows say the environment was honoured.
  const { rows: nodes } = await db.query<{ identity: string; env: string; kind: string }>(
    `SELECT identity, env, kind FROM cyclium_nodes WHERE env = $1 AND status = 'running'
      ORDER BY identity`,
    [TEAM_ENV],
  );
  expect(nodes.filter((node) => node.kind === "worker").map((node) => node.identity)).toEqual([
    "team-worker-1",
    "team-worker-2",
  ]);

  await page.goto(`${baseUrl}/sign-in`);
  await submitSignInForm(page, "operator");
  await page.goto(`${baseUrl}/actors?env=${TEAM_ENV}`);
  await page.getByTestId(FIRE).click();
  await page.getByTestId(`${FIRE}-field-name`).fill("Ada");
  await page.getByTestId(`${FIRE}-submit`).click();
  await page.getByTestId("fired-episode-link").click();
  await expect(page.getByTestId("episode-status")).toContainText("completed", { timeout: 30_000 });
  const { rows } = await db.query<{ executed_by: string; result: unknown; source_env: string }>(
    `SELECT executed_by, result, source_env FROM cyclium_episodes
      WHERE actor_id = 'greeter' AND source_env = $1`,
    [TEAM_ENV],
  );
  expect(rows).toEqual([
    {
      executed_by: expect.stringMatching(/^team-worker-[12]$/) as unknown,
      result: { greeting: "Hello, Ada!" },
      source_env: TEAM_ENV,
    },
  ]);
  await page.screenshot({ path: path.join(screenshotsDir, "team-console-completed.png") });
  // Off the console before it is killed: its live stream's loss is not a page error.
  await page.goto("about:blank");

  // The team's workflow, started by the console (its REST fire runs the console's engine), then
  // the console killed outright: the workers alone take the workflow to its end.
  const { token } = await createApiToken({
    db,
    name: "team-ci",
    role: "operator",
    tenants: [TEAM_ENV],
    createdBy: null,
  });
  const fired = await fetch(
    `${baseUrl}/api/v1/tenants/${TEAM_ENV}/triggers/daily_report_schedule/fire`,
    {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ context: { reason: "first day" } }),
    },
  );
  expect(fired.status).toBe(200);
  signalGroup(teamConsole.pid, "SIGKILL");
  await expect
    .poll(
      async () =>
        (
          await db.query<{ status: string }>(
            `SELECT status FROM cyclium_workflow_instances
              WHERE workflow_name = 'daily_report' AND source_env = $1`,
            [TEAM_ENV],
          )
        ).rows.map((row) => row.status),
      { timeout: 60_000 },
    )
    .toEqual(["done"]);

  // A console started again the way getting-started.md writes it, `npx cyclium-console`, then
  // stopped with one SIGTERM to npx alone (what a service manager signalling its main process
  // does). npm exits without passing the signal on; the console must still stop its server and
  // mark its node stopped, not stay serving as an orphan.
  const again = startProcess({
    name: "team-console-2",
    command: process.execPath,
    args: [NPX_CLI, "cyclium-console", "--port", String(port), "--hostname", "127.0.0.1"],
    cwd: dir,
    env: {
      ...shared,
      CYCLIUM_DEPLOYMENT: "./dist/deployment.js",
      CYCLIUM_NODE_IDENTITY: "team-web",
    },
  });
  processes.push(again);
  await waitForHttp(`${baseUrl}/api/health`, again);
  await expect
    .poll(
      async () =>
        (await db.query(`SELECT 1 FROM cyclium_nodes WHERE identity = 'team-web'`)).rowCount,
    )
    .toBe(1);
  process.kill(again.pid, "SIGTERM");
  await again.exited;
  await expect
    .poll(
      async () =>
        (
          await db.query<{ status: string }>(
            `SELECT status FROM cyclium_nodes WHERE identity = 'team-web'`,
          )
        ).rows.map((row) => row.status),
      { timeout: 20_000 },
    )
    .toEqual(["stopped"]);
  await expect.poll(() => groupIsEmpty(again.pid), { timeout: 20_000 }).toBe(true);
  await expect
    .poll(() =>
      fetch(`${baseUrl}/api/health`).then(
        () => "answers",
        () => "closed",
      ),
    )
    .toBe("closed");
});

/** True once no process of the group `pid` led is left. */
function groupIsEmpty(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return false;
  } catch {
    return true;
  }
}
