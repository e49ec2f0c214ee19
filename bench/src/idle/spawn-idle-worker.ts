import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { childEnvironment } from "../env";

const WORKER_ROOT = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../apps/worker",
);

export interface IdleWorker {
  readonly ready: Promise<void>;
  stop(): Promise<void>;
}

/** apps/worker's main.ts (the demo deployment) as a child process, left idle. */
export function spawnIdleWorker(options: { identity: string; databaseUrl: string }): IdleWorker {
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: WORKER_ROOT,
    env: childEnvironment({
      DATABASE_URL: options.databaseUrl,
      CYCLIUM_NODE_IDENTITY: options.identity,
      CYCLIUM_MIGRATE: "false",
      PORT: "0",
      LOG_LEVEL: "info",
    }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      output.push(text);
      if (text.includes("worker listening")) resolve();
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    void exited.then(() => reject(new Error(`${options.identity} exited:\n${output.join("")}`)));
  });
  return {
    ready,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
