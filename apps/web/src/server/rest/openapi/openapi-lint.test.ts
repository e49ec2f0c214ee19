// docs/openapi.json passes Redocly CLI's `recommended-strict` rules (apps/web/redocly.yaml), run
// from the package's own bin, offline: telemetry and the update check are switched off.
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { OPENAPI_JSON_FILE } from "./openapi-files";

const run = promisify(execFile);
const webRoot = fileURLToPath(new URL("../../../../", import.meta.url));
const redoclyBin = join(
  dirname(createRequire(import.meta.url).resolve("@redocly/cli/package.json")),
  "bin/cli.js",
);

it("lints clean with Redocly CLI", async () => {
  const result = await run(
    process.execPath,
    [redoclyBin, "lint", OPENAPI_JSON_FILE, "--config", join(webRoot, "redocly.yaml")],
    {
      cwd: webRoot,
      env: {
        ...process.env,
        REDOCLY_TELEMETRY: "off",
        REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
        REDOCLY_SUPPRESS_NOTIFICATIONS: "true",
      },
      timeout: 60_000,
    },
  ).catch((error: { stdout?: string; stderr?: string; code?: number }) => error);
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  expect("code" in result ? result.code : 0, output).toBe(0);
  expect(output).toContain("Your API description is valid");
});
