import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export interface TestProcess {
  child: ChildProcess;
  /** Every JSON line the process printed so far. */
  lines: Record<string, unknown>[];
  /** Resolves with the first line matching, as soon as it is printed. */
  waitFor(
    predicate: (line: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  /** Writes one line to the process's stdin. */
  send(line: string): void;
  /** SIGKILL (or another signal) and wait for the exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

function workspaceRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, "pnpm-workspace.yaml"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("workspace root not found");
    dir = parent;
  }
  return dir;
}

/**
 * Runs a TypeScript file as its own Node process (`node --import tsx`, no wrapper process, so a
 * signal reaches the node itself) and collects the JSON lines it prints.
 */
export function spawnTestProcess(script: string, env: Record<string, string>): TestProcess {
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    cwd: workspaceRoot(),
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const lines: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (text) => {
    try {
      lines.push(JSON.parse(text) as Record<string, unknown>);
    } catch {
      return;
    }
    for (const wake of waiters) wake();
  });
  return {
    child,
    lines,
    waitFor(predicate, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const found = lines.find(predicate);
          if (!found) return;
          cleanup();
          resolve(found);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`process ${child.pid} printed no matching line; stderr: ${stderr}`));
        }, timeoutMs);
        const onExit = (): void => {
          cleanup();
          reject(new Error(`process ${child.pid} exited first; stderr: ${stderr}`));
        };
        const cleanup = (): void => {
          clearTimeout(timer);
          waiters.delete(check);
          child.off("exit", onExit);
        };
        waiters.add(check);
        child.once("exit", onExit);
        check();
      });
    },
    send(line) {
      child.stdin?.write(`${line}\n`);
    },
    async kill(signal = "SIGKILL") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
