/** How a strategy call ended, as the step loop sees it. */
export type GuardedOutcome<T> =
  | { kind: "value"; value: T }
  | { kind: "threw"; error: unknown }
  | { kind: "aborted"; reason: unknown }
  | { kind: "wall_exceeded" };

/**
 * Runs one strategy call (`init` or `step`) and stops waiting for it when `signal` aborts or
 * `timeoutMs` passes, whichever is first. The call itself cannot be killed: it sees the abort
 * through its own `ctx.signal` and whatever it settles with afterwards is ignored (a late
 * rejection is swallowed here rather than crashing the process as an unhandled rejection).
 */
export function guardedCall<T>(
  call: () => T | Promise<T>,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<GuardedOutcome<T>> {
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    return Promise.resolve({ kind: "aborted", reason });
  }
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (outcome: GuardedOutcome<T>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(outcome);
    };
    const onAbort = (): void => {
      const reason: unknown = signal.reason;
      finish({ kind: "aborted", reason });
    };
    signal.addEventListener("abort", onAbort, { once: true });
    if (Number.isFinite(timeoutMs)) {
      timer = setTimeout(() => finish({ kind: "wall_exceeded" }), Math.max(0, timeoutMs));
    }
    let pending: Promise<T>;
    try {
      pending = Promise.resolve(call());
    } catch (error) {
      finish({ kind: "threw", error });
      return;
    }
    pending.then(
      (value) => finish({ kind: "value", value }),
      (error: unknown) => finish({ kind: "threw", error }),
    );
  });
}
