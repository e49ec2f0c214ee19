import path from "node:path";

export const e2eRoot = path.resolve(import.meta.dirname, "..");
export const repoRoot = path.resolve(e2eRoot, "..");
export const webRoot = path.join(repoRoot, "apps/web");
export const workerRoot = path.join(repoRoot, "apps/worker");
export const logsDir = path.join(e2eRoot, ".logs");
export const screenshotsDir = path.join(e2eRoot, "screenshots");
/** Signed-in browser states, one file per role, written by the `authStates` fixture. */
export const authDir = path.join(e2eRoot, ".auth");
/** CYCLIUM_DEPLOYMENT of the suite's console and of every worker it starts: an absolute path. */
export const e2eDeploymentPath = path.join(e2eRoot, "deployment/e2e-deployment.ts");
/** Next.js CLI of the web app (its package scripts call the same binary). */
export const nextBin = path.join(webRoot, "node_modules/next/dist/bin/next");
/** The console's start command (`cyclium-console`): `next start` for CYCLIUM_DEPLOYMENT. */
export const consoleBin = path.join(webRoot, "bin/cyclium-console.mjs");
