import os from "node:os";
import { pino, type DestinationStream, type Level, type Logger } from "pino";
import { redactSecrets } from "../errors/index";

/**
 * A worker's JSON logger. Whatever a line carries (an error's message or stack, a driver's
 * detail, a setting echoed back), a connection string in it never shows its password: one regex
 * pass over each finished line (redactSecrets), so no field can slip past a list of paths.
 */
export function createWorkerLogger(options: {
  level: Level | "silent";
  node: string;
  /** Default: stdout. */
  destination?: DestinationStream;
}): Logger {
  const settings = {
    level: options.level,
    base: { app: "cyclium-worker", node: options.node, pid: process.pid, host: os.hostname() },
    hooks: { streamWrite: redactSecrets },
  };
  // Without a destination, pino's own default (stdout, flushed on exit), as before.
  return options.destination === undefined ? pino(settings) : pino(settings, options.destination);
}
