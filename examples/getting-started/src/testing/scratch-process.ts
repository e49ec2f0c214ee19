import { spawn, type ChildProcess } from "node:child_process";

export interface ScratchProcess {
  readonly child: ChildProcess;
  /** Every line it wrote to stdout and stderr, in order. */
  readonly output: string[];
  /** Resolves once the output has a line containing `readyText`; rejects if it exits first. */
  readonly ready: Promise<void>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Runs built JavaScript of the scratch project with plain `node` (no tsx, no shell in between,
 * so signals reach it), with `env` on top of this process's environment.
 */
export function startScratchProcess(options: {
  cwd: string;
  args: string[];
  env: Record<string, string>;
  readyText?: string;
}): ScratchProcess {
  const child = spawn(process.execPath, options.args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  let markReady: (() => void) | undefined;
  let isReady = options.readyText === undefined;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    if (isReady) resolve();
    void exited.then(({ code, signal }) => {
      if (!isReady) {
        reject(
          new Error(`${options.args.join(" ")} exited (${signal ?? code}):\n${output.join("\n")}`),
        );
      }
    });
  });
  ready.catch(() => undefined);
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (line.length === 0) continue;
      output.push(line);
      if (!isReady && options.readyText !== undefined && line.includes(options.readyText)) {
        isReady = true;
        markReady?.();
      }
    }
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  return {
    child,
    output,
    ready,
    exited,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
