// `prisma generate` needs no schema engine for the `prisma-client` generator, but the CLI
// still insists that PRISMA_SCHEMA_ENGINE_BINARY points at a file when it cannot download
// one (no network). Any existing file satisfies the check; it is never executed by generate.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
env.PRISMA_HIDE_UPDATE_MESSAGE = "1";
const root = fileURLToPath(new URL("..", import.meta.url));
const result = spawnSync("pnpm", ["exec", "prisma", "generate"], {
  cwd: root,
  env,
  stdio: "inherit",
});
process.exit(result.status ?? 1);
