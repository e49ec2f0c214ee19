import { createInterface } from "node:readline";
import { ZEnvelope, type TCommand } from "./commands";

export type CommandHandler = (command: TCommand) => Promise<unknown>;

/** Writes one JSON line to stdout for the orchestrator. */
export function emit(line: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

/**
 * The child side of the orchestrator's line protocol: every stdin line is a command with an id,
 * answered by a reply line once its handler settles. Commands run concurrently (a long fire batch
 * must not hold up a probe).
 */
export function runCommandLoop(handle: CommandHandler): void {
  const lines = createInterface({ input: process.stdin });
  // stdin ends when the orchestrator is gone (crashed, killed, interrupted): so do we, at once,
  // rather than linger as a worker nobody will stop.
  lines.on("close", () => process.exit(1));
  lines.on("line", (line) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      emit({ event: "bad-command", line });
      return;
    }
    const command = ZEnvelope.safeParse(parsed);
    if (!command.success) {
      emit({ event: "bad-command", line, error: command.error.message });
      return;
    }
    const { id } = command.data;
    handle(command.data).then(
      (result) => emit({ reply: id, ok: true, result: result ?? null }),
      (error: unknown) =>
        emit({
          reply: id,
          ok: false,
          error: error instanceof Error ? error.message : String(error),
        }),
    );
  });
}
