import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const WORKER_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export const TEST_WORKER_ENTRY = "src/testing/test-worker.ts";
export const WORKER_MAIN = "src/main.ts";

export interface WorkerProcess {
  readonly identity: string;
  readonly child: ChildProcess;
  /** Every line it wrote to stdout and stderr, in order. */
  readonly output: string[];
  /** The lines it wrote to stderr alone. */
  readonly errors: string[];
  /** Resolves when it logged that it listens; rejects if it exits first. */
  readonly ready: Promise<{ port: number }>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** GET /metrics, parsed into `name -> value`, summed over a labelled metric's series. */
  metrics(): Promise<Map<string, number>>;
  /** GET /metrics as the worker serves it. */
  metricsText(): Promise<string>;
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts a worker as a real child process (`node --import tsx <entry>`, no shell or pnpm in
 * between, so signals reach it directly), with the given environment on top of this one's.
 */
export function spawnWorker(options: {
  identity: string;
  env: Record<string, string>;
  entry?: string;
  /** Before the entry, e.g. `--require` of a preload. */
  nodeArgs?: string[];
}): WorkerProcess {
  const args = [...(options.nodeArgs ?? []), "--import", "tsx", options.entry ?? TEST_WORKER_ENTRY];
  const child = spawn(process.execPath, args, {
    cwd: WORKER_ROOT,
    env: {
      ...process.env,
      PORT: "0",
      LOG_LEVEL: "info",
      CYCLIUM_NODE_IDENTITY: options.identity,
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const errors: string[] = [];
  let port: number | undefined;
  let onReady: ((value: { port: number }) => void) | undefined;
  const collect = (chunk: Buffer, stderr = false) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (line.length === 0) continue;
      output.push(line);
      if (stderr) errors.push(line);
      const match = /"port":(\d+)/.exec(line);
      if (port === undefined && match?.[1] !== undefined && line.includes("worker listening")) {
        port = Number(match[1]);
        onReady?.({ port });
      }
    }
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", (chunk: Buffer) => collect(chunk, true));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  const ready = new Promise<{ port: number }>((resolve, reject) => {
    onReady = resolve;
    void exited.then(({ code, signal }) => {
      if (port === undefined) {
        reject(
          new Error(
            `worker ${options.identity} exited (${signal ?? code}) before it was ready:\n${output.join("\n")}`,
          ),
        );
      }
    });
  });
  // A worker that is expected to fail (bad configuration) is never awaited for readiness.
  ready.catch(() => undefined);
  const metricsText = async (): Promise<string> => {
    const { port: p } = await ready;
    return (await fetch(`http://127.0.0.1:${p}/metrics`)).text();
  };
  return {
    identity: options.identity,
    child,
    output,
    errors,
    ready,
    exited,
    metricsText,
    async metrics() {
      const text = await metricsText();
      const values = new Map<string, number>();
      for (const line of text.split("\n")) {
        // Episode counters carry actor and expectation labels: a test's total is their sum.
        const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{[^}]*\})? ([0-9.eE+-]+)$/.exec(line);
        if (match?.[1] !== undefined && match[2] !== undefined)
          values.set(match[1], (values.get(match[1]) ?? 0) + Number(match[2]));
      }
      return values;
    },
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
