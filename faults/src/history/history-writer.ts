import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import path from "node:path";
import { realNow, type THistoryEntry } from "./records";

/**
 * Appends history records to a JSONL file with one synchronous write(2) per record. Slower than a
 * buffered stream, but a `kill -9` loses nothing the process had already recorded: the kernel
 * holds every completed write, and the checker must know what a killed worker did up to its end.
 */
export class HistoryWriter {
  readonly #fd: number;
  readonly proc: string;
  #closed = false;

  constructor(file: string, proc: string) {
    mkdirSync(path.dirname(file), { recursive: true });
    this.#fd = openSync(file, "a");
    this.proc = proc;
  }

  write(entry: THistoryEntry): void {
    if (this.#closed) return;
    writeSync(this.#fd, `${JSON.stringify({ t: realNow(), proc: this.proc, ...entry })}\n`);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    closeSync(this.#fd);
  }
}
