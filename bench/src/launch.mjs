// Runs the bench on Node >= 22.18, which graphile-worker 0.18 and pg-boss 12 require, while the
// workspace's default Node may be 20: this Node when it is recent enough, else BENCH_NODE, else
// the node@24 package fetched once by npx from the npm registry. main.ts and every worker process
// it forks then share that one binary and the tsx loader.
//
// Cyclium is measured as a worker runs it in production (apps/worker's start:prod): @cyclium/db
// and @cyclium/core are built first and resolved to their dist/ through the `cyclium-build`
// export condition. The bench's own files stay TypeScript under tsx, which would otherwise also
// transpile the library and add its keepNames helper to every nested function it creates
// (measured: about a tenth of the worker's CPU per drained item, docs/benchmarks.md).
// BENCH_CPU_PROF=<dir> writes a V8 CPU profile of the bench and of each of its worker processes
// there (they inherit the flags), one file per process.
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

function buildCyclium() {
  process.stderr.write("[bench] building @cyclium/db and @cyclium/core (workers run dist/)\n");
  const root = fileURLToPath(new URL("../..", import.meta.url));
  execFileSync(
    "npx",
    ["-y", "pnpm@10.34.8", "--filter", "@cyclium/db", "--filter", "@cyclium/core", "build"],
    { cwd: root, stdio: ["ignore", "ignore", "inherit"] },
  );
}

const args = process.argv.slice(2);
const node = findNode();
if (!args.includes("--render")) buildCyclium();
const tsx = import.meta.resolve("tsx");
const main = fileURLToPath(new URL("./main.ts", import.meta.url));
const profile = process.env.BENCH_CPU_PROF
  ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
  : [];
const flags = ["--import", tsx, "--conditions=cyclium-build", ...profile];
const child = spawn(node, [...flags, main, ...args], {
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("exit", (code, signal) => {
  process.exitCode = code ?? (signal ? 1 : 0);
});
