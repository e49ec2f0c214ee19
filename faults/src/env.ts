/**
 * The orchestrator's own environment, read in this one place (the lint rule keeps process.env in
 * env modules): cluster processes inherit it (PATH, the tsx loader's settings) under the
 * variables the suite sets for them.
 */
export function inheritedEnvironment(): NodeJS.ProcessEnv {
  return process.env;
}
