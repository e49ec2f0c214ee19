import { getWebEnv, WebEnvError, type TWebEnv } from "../env";

/** Exit code for invalid configuration, shared with the worker (SPEC section 9). */
const EXIT_INVALID_CONFIG = 2;

export function assertWebEnvOrExit(): TWebEnv {
  try {
    return getWebEnv();
  } catch (error) {
    if (!(error instanceof WebEnvError)) throw error;
    console.error(error.message);
    return process.exit(EXIT_INVALID_CONFIG);
  }
}
