// Runs the bench on Node >= 22.18, which graphile-worker 0.18 and pg-boss 12 require, while the
// workspace's default Node may be 20: this Node when it is recent enough, else BENCH_NODE, else
// the node@24 package fetched once by npx from the npm registry. main.ts and every worker process
// it forks then share that one binary and the tsx loader.
import { execFileSync, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const REQUIRED = [22, 18];

function recentEnough(version) {
  const [major, minor] = version.replace(/^v/, "").split(".").map(Number);
  return major > REQUIRED[0] || (major === REQUIRED[0] && minor >= REQUIRED[1]);
}

function findNode() {
  if (recentEnough(process.version)) return process.execPath;
  if (process.env.BENCH_NODE) return process.env.BENCH_NODE;
  process.stderr.write(`[bench] Node ${process.version} is too old; fetching node@24 with npx\n`);
  return execFileSync("npx", ["-y", "node@24", "-e", "process.stdout.write(process.execPath)"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
}

const node = findNode();
const tsx = import.meta.resolve("tsx");
const main = fileURLToPath(new URL("./main.ts", import.meta.url));
const child = spawn(node, ["--import", tsx, main, ...process.argv.slice(2)], {
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("exit", (code, signal) => {
  process.exitCode = code ?? (signal ? 1 : 0);
});
