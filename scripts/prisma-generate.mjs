// `prisma generate` needs no schema engine for the `prisma-client` generator, but the CLI
// still insists that PRISMA_SCHEMA_ENGINE_BINARY points at a file when it cannot download
// one (no network). Any existing file satisfies the check; it is never executed by generate.
// Then the plain row types of packages/db/scripts/generate-row-types.mjs.
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
if (result.status !== 0) process.exit(result.status ?? 1);
// The row types @cyclium/db ships, as plain interfaces (see the script's header).
const rows = spawnSync(process.execPath, ["packages/db/scripts/generate-row-types.mjs"], {
  cwd: root,
  stdio: "inherit",
});
process.exit(rows.status ?? 1);
