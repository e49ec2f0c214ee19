// Real processes for the e2e suite: the web app and full-mode workers. Each child leads its own
// process group (detached), so stopping it also stops whatever it spawned, and every child is
// SIGKILLed if the test runner itself exits without running the teardown.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { freePort } from "@cyclium/db/testing";
import { childProcessEnv } from "./env";
import { consoleBin, e2eDeploymentPath, logsDir, webRoot, workerRoot } from "./paths";

export interface ManagedProcess {
  name: string;
  pid: number;
  logFile: string;
  /** Resolves once the process has exited, however it was stopped. */
  exited: Promise<void>;
  /** SIGTERM to the process group, SIGKILL after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

const running = new Map<number, ChildProcess>();

process.once("exit", () => {
  for (const pid of running.keys()) signalGroup(pid, "SIGKILL");
});

export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

export function startProcess(options: {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}): ManagedProcess {
  fs.mkdirSync(logsDir, { recursive: true });
  const logFile = path.join(logsDir, `${options.name}.log`);
  const log = fs.openSync(logFile, "w");
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: childProcessEnv(options.env),
    stdio: ["ignore", log, log],
    detached: true,
  });
  fs.closeSync(log);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start ${options.name}: ${options.command}`);
  running.set(pid, child);
  const exited = new Promise<void>((resolve) =>
    child.once("exit", () => {
      running.delete(pid);
      resolve();
    }),
  );

  return {
    name: options.name,
    pid,
    logFile,
    exited,
    stop(graceMs = 10_000) {
      return new Promise((resolve) => {
        if (hasExited(child)) return resolve();
        const timer = setTimeout(() => signalGroup(pid, "SIGKILL"), graceMs);
        child.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        signalGroup(pid, "SIGTERM");
      });
    },
  };
}

/**
 * Polls `url` until it answers 2xx, failing early with the log's tail if the process dies —
 * the thing to read when a server does not come up.
 */
export async function waitForHttp(
  url: string,
  owner: ManagedProcess,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastProblem = "no answer yet";
  while (Date.now() < deadline) {
    if (!isAlive(owner.pid)) {
      throw new Error(`${owner.name} exited before ${url} answered:\n${tail(owner.logFile)}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (response.ok) return;
      lastProblem = `HTTP ${response.status}`;
    } catch (error) {
      lastProblem = error instanceof Error ? error.message : String(error);
    }
    // Poll interval while the server boots (`next start` is up in ~1 s).
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(
    `${url} did not answer within ${timeoutMs / 1000} s (${lastProblem}):\n${tail(owner.logFile)}`,
  );
}

function isAlive(pid: number): boolean {
  const child = running.get(pid);
  return child !== undefined && !hasExited(child);
}

function tail(file: string, lines = 40): string {
  if (!fs.existsSync(file)) return "(no log)";
  return fs.readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
}

/**
 * The console as operators run it: its start command (apps/web/bin/cyclium-console.mjs, `next
 * start` of the production build) with CYCLIUM_DEPLOYMENT naming the e2e deployment, which the
 * console imports as it starts.
 */
export async function startWeb(options: {
  databaseUrl: string;
  env?: Record<string, string>;
  /** Log file name under .logs/ when a spec starts a console of its own. */
  name?: string;
}): Promise<ManagedProcess & { baseUrl: string }> {
  const port = await freePort();
  const web = startProcess({
    name: options.name ?? "web",
    command: process.execPath,
    args: [consoleBin, "--port", String(port), "--hostname", "127.0.0.1"],
    cwd: webRoot,
    env: {
      DATABASE_URL: options.databaseUrl,
      PORT: String(port),
      CYCLIUM_DEPLOYMENT: e2eDeploymentPath,
      CYCLIUM_DEMO_ADVISOR_CRON: QUIET_ADVISOR_CRON,
      ...options.env,
    },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${baseUrl}/api/health`, web);
  } catch (error) {
    await web.stop();
    throw error;
  }
  return { ...web, baseUrl };
}

/**
 * Once a year (00:00 on 1 January): the demo advisor's scheduled episodes would otherwise land
 * every five minutes in the middle of specs that count episodes.
 */
const QUIET_ADVISOR_CRON = "0 0 1 1 *";

/** The fixed identity of the e2e worker: specs look it up on the actors & modes page. */
export const E2E_WORKER_IDENTITY = "worker-e2e-1";

/**
 * A full-mode worker as deployed (apps/worker/src/main.ts under `node --import tsx`, no pnpm or
 * shell in between so SIGTERM reaches it) running the e2e deployment like the console, polling
 * deferred trigger requests every 500 ms so a fire from the console runs within a second
 * instead of the default 5 s.
 */
export async function startWorker(options: {
  databaseUrl: string;
  identity?: string;
  env?: Record<string, string>;
}): Promise<ManagedProcess & { baseUrl: string; identity: string }> {
  const port = await freePort();
  const identity = options.identity ?? E2E_WORKER_IDENTITY;
  const worker = startProcess({
    name: identity,
    command: process.execPath,
    args: ["--import", "tsx", "src/main.ts"],
    cwd: workerRoot,
    env: {
      DATABASE_URL: options.databaseUrl,
      PORT: String(port),
      CYCLIUM_MODE: "full",
      CYCLIUM_DEPLOYMENT: e2eDeploymentPath,
      CYCLIUM_NODE_IDENTITY: identity,
      CYCLIUM_TRIGGER_POLL_INTERVAL_MS: "500",
      CYCLIUM_DEMO_ADVISOR_CRON: QUIET_ADVISOR_CRON,
      LOG_LEVEL: "info",
      ...options.env,
    },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${baseUrl}/healthz`, worker);
  } catch (error) {
    await worker.stop();
    throw error;
  }
  return { ...worker, baseUrl, identity };
}
