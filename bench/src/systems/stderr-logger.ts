import { inspect } from "node:util";

/** Warnings and errors of a system under test go to stderr, prefixed with the process label. */
export function reportToStderr(label: string, level: string, message: string, meta?: unknown) {
  const detail = meta === undefined ? "" : ` ${inspect(meta, { depth: 4, breakLength: Infinity })}`;
  process.stderr.write(`[${label}] ${level}: ${message}${detail}\n`);
}
