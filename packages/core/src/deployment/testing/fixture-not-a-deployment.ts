// Loaded by path in load-deployment.test.ts: a module that exports something else.
export const actors = [] as const;
