/**
 * The subset of a pino logger core calls. Structural, so a pino instance, a child logger or a
 * test double all fit.
 */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

const noop = (): void => {};

/** Used when the caller gives no logger: library code must not print on its own. */
export const silentLogger: Logger = { debug: noop, info: noop, warn: noop, error: noop };
