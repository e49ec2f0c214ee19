// `pnpm commits:check`: every commit since the rule began (POLICY_BASE) has a message a reader can
// scan (commitlint.config.mjs). Run by the README's test command; merges are skipped by commitlint.
// In a shallow clone without POLICY_BASE only the commits present are checked, and it says so.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The last commit before subjects were held to 72 characters; older history is left as it is. */
const POLICY_BASE = "3a5aa280ba4e5e5db29b8022e23d4700c1941a8c";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const git = (...args) => spawnSync("git", args, { cwd: root, encoding: "utf8" });

if (git("rev-parse", "--git-dir").status !== 0) {
  console.log("commits:check: not a git checkout; nothing to check");
  process.exit(0);
}
const hasBase = git("cat-file", "-e", `${POLICY_BASE}^{commit}`).status === 0;
const from = hasBase
  ? POLICY_BASE
  : git("rev-list", "--max-parents=0", "HEAD").stdout.trim().split("\n")[0];
if (!hasBase)
  console.log(`commits:check: ${POLICY_BASE.slice(0, 7)} is not in this clone; checking HEAD only`);
const cli = createRequire(import.meta.url).resolve("@commitlint/cli/cli.js");
const args = hasBase ? ["--from", from, "--to", "HEAD"] : ["--last"];
// commitlint prints every message it reads: shown only when one fails, else a one-line summary.
const run = spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: "utf8" });
if (run.status !== 0) process.stdout.write(`${run.stdout}${run.stderr}`);
else {
  const range = hasBase ? [`${from}..HEAD`] : ["-1", "HEAD"];
  const count = git("rev-list", "--count", "--no-merges", ...range).stdout.trim();
  console.log(`commits:check: the messages of ${count} commits pass`);
}
process.exit(run.status ?? 1);
