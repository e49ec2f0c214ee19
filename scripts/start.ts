// `pnpm start`: the whole product on one machine. PostgreSQL (embedded under .data/ unless
// DATABASE_URL is set), migrations, one worker (full mode) and the console (trigger_only), until
// Ctrl-C, which stops all of them, and the embedded server when this command started it.
// `pnpm dev` is the same with `next dev` for the console.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { migrate, migrationsDir, repoRoot, resolveDatabase } from "@cyclium/db";

const dev = process.argv.includes("--dev");
const webPort = Number(process.env.PORT ?? 3000);
const workerPort = Number(process.env.CYCLIUM_WORKER_PORT ?? 3001);
const say = (message: string) => console.log(`[start] ${message}`);

const database = await resolveDatabase({
  databaseUrl: process.env.DATABASE_URL || undefined,
  log: say,
});
const children: ChildProcess[] = [];
let stopping = false;
let demoAccounts: DemoAccounts | undefined;

async function stopAll(code: number) {
  if (stopping) return;
  stopping = true;
  say("stopping…");
  await Promise.all(children.map((child) => terminate(child)));
  if (database.embedded?.startedHere) {
    say("stopping embedded PostgreSQL");
    await database.embedded.stop();
  }
  process.exit(code);
}
process.on("SIGINT", () => void stopAll(0));
process.on("SIGTERM", () => void stopAll(0));

try {
  const result = await migrate({ url: database.url, migrationsDir, log: say });
  say(
    `database ready (${result.applied.length} migration(s) applied now, ${result.alreadyApplied.length} before)`,
  );
  await seed(database.url);
  demoAccounts = await ensureDemoAccounts(database.url);
  if (!dev && webBuildIsStale()) {
    say("building the console (next build)…");
    await run("pnpm", ["--filter", "@cyclium/web", "build"]);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  await stopAll(1);
}

const shared = { ...process.env, DATABASE_URL: database.url };
start("worker", "pnpm", ["--filter", "@cyclium/worker", "start"], {
  ...shared,
  PORT: String(workerPort),
  CYCLIUM_MODE: "full",
  CYCLIUM_NODE_IDENTITY: process.env.CYCLIUM_WORKER_IDENTITY ?? "worker-1",
});
// `next start` and `next dev` take their port from PORT.
// The console's start command resolves a relative CYCLIUM_DEPLOYMENT from its own directory
// (apps/web): a path given to this command is made absolute first.
const deploymentSetting = process.env.CYCLIUM_DEPLOYMENT?.trim();
const deploymentEnv =
  deploymentSetting !== undefined && fs.existsSync(path.resolve(deploymentSetting))
    ? { CYCLIUM_DEPLOYMENT: path.resolve(deploymentSetting) }
    : {};
start("web", "pnpm", ["--filter", "@cyclium/web", dev ? "dev" : "start"], {
  ...shared,
  ...deploymentEnv,
  PORT: String(webPort),
  CYCLIUM_MODE: "trigger_only",
});
await waitForHttp(`http://127.0.0.1:${workerPort}/healthz`);
await waitForHttp(`http://127.0.0.1:${webPort}/api/health`);
if (!stopping) {
  say(`worker  http://127.0.0.1:${workerPort}/healthz`);
  say(`console http://localhost:${webPort}  (Ctrl-C stops everything)`);
  if (demoAccounts) {
    const { operator, admin } = demoAccounts;
    say(`sign in as ${operator.email} / ${operator.password} (operator)`);
    say(`      or ${admin.email} / ${admin.password} (admin: users, API tokens for REST)`);
  }
}

function start(name: string, command: string, args: string[], env: NodeJS.ProcessEnv) {
  // Each child leads its own process group, so stopping it also stops what it spawned (tsx, next).
  const child = spawn(command, args, { cwd: repoRoot, env, stdio: "inherit", detached: true });
  children.push(child);
  child.on("exit", (code, signal) => {
    if (stopping) return;
    console.error(`[start] ${name} exited (${signal ?? `code ${code}`}); stopping the rest`);
    void stopAll(1);
  });
}

function terminate(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined)
      return resolve();
    const pid = child.pid;
    const kill = (signal: NodeJS.Signals) => {
      try {
        process.kill(-pid, signal);
      } catch {
        /* already gone */
      }
    };
    // Workers let running episodes finish their current step within 30 s (SPEC deploy sequence).
    const timer = setTimeout(() => kill("SIGKILL"), 35_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    kill("SIGTERM");
  });
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, stdio: "inherit" });
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} failed`)),
    );
  });
}

async function waitForHttp(url: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !stopping) {
    const ok = await fetch(url).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (!stopping) throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/** The console build is stale when any source it bundles is newer than the last build. */
function webBuildIsStale(): boolean {
  const buildId = path.join(repoRoot, "apps/web/.next/BUILD_ID");
  if (!fs.existsSync(buildId)) return true;
  const builtAt = fs.statSync(buildId).mtimeMs;
  // The deployment is not bundled (the console imports it as it starts): only the console's own
  // sources and the packages it bundles make a build stale.
  const roots = [
    "apps/web/src",
    "apps/web/next.config.ts",
    "packages/core/src",
    "packages/db/src",
  ].map((root) => path.join(repoRoot, root));
  return roots.some((root) => newestMtime(root) > builtAt);
}

function newestMtime(file: string): number {
  if (!fs.existsSync(file)) return 0;
  const stat = fs.statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(file)) {
    if (entry === "generated" || entry === "node_modules") continue;
    newest = Math.max(newest, newestMtime(path.join(file, entry)));
  }
  return newest;
}

interface DemoAccounts {
  operator: { email: string; password: string };
  admin: { email: string; password: string };
}

/** The demo operator and admin, fresh random passwords each start (apps/web owns the accounts). */
async function ensureDemoAccounts(url: string): Promise<DemoAccounts> {
  const { ensureDemoAccountsAt } = (await import(
    path.join(repoRoot, "packages/demo/src/demo-accounts.ts")
  )) as {
    ensureDemoAccountsAt: (
      url: string,
      hashPassword: (password: string) => Promise<string>,
    ) => Promise<DemoAccounts>;
  };
  // The console's Argon2id hash: apps/web owns it (neither core nor the demo installs argon2).
  const { hashPassword } = (await import(
    path.join(repoRoot, "apps/web/src/server/auth/password-hash.ts")
  )) as { hashPassword: (password: string) => Promise<string> };
  return ensureDemoAccountsAt(url, hashPassword);
}

/** Demo data for a first look: filled in by the runtime and console once they exist. */
async function seed(url: string) {
  const seedModule = path.join(repoRoot, "packages/demo/src/seed.ts");
  if (!fs.existsSync(seedModule)) return;
  const { seedDemoData } = (await import(seedModule)) as {
    seedDemoData: (url: string) => Promise<string[]>;
  };
  for (const line of await seedDemoData(url)) say(line);
}
