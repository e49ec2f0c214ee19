import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { exampleRoot } from "./testing/scratch-project";

const run = promisify(execFile);

// docs/deployment.md's recipe for a team's worker. No Docker engine runs here, so the Dockerfile
// is checked for what the user relies on: production dependencies, dist copied, `node
// dist/worker.js` in exec form (SIGTERM reaches node) as a non-root user.
describe("the team's worker recipe", () => {
  const dockerfile = fs.readFileSync(path.join(exampleRoot, "Dockerfile"), "utf8");
  const instructions = dockerfile
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  const stages = instructions.filter((line) => line.startsWith("FROM "));
  const final = instructions.slice(instructions.lastIndexOf(stages.at(-1)!));

  it("builds in one stage and runs node dist/worker.js from production deps as non-root", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(instructions).toContain("RUN npm ci --omit=dev --no-audit --no-fund");
    expect(final.some((line) => /^COPY --from=\S+ .*\/app\/dist \.\/dist$/.test(line))).toBe(true);
    expect(final.some((line) => /^COPY --from=\S+ .*\/app\/node_modules/.test(line))).toBe(true);
    const user = final.filter((line) => line.startsWith("USER "));
    expect(user.length).toBe(1);
    expect(user[0]).not.toMatch(/^USER (root|0)(:|$)/);
    // Exec form: no shell between the runtime and node, so SIGTERM goes to node itself.
    expect(final.at(-1)).toBe('CMD ["node", "dist/worker.js"]');
    expect(final.some((line) => line.startsWith("ENTRYPOINT"))).toBe(false);
  });

  it("has a systemd unit running the same command with the documented environment", async () => {
    const unitPath = path.join(exampleRoot, "deploy/cyclium-worker.service");
    const unit = fs.readFileSync(unitPath, "utf8");
    expect(unit).toMatch(/^ExecStart=\/usr\/bin\/node dist\/worker\.js$/m);
    expect(unit).toMatch(/^User=(?!root$)\S+$/m);
    expect(unit).toMatch(/^KillSignal=SIGTERM$/m);
    for (const name of ["CYCLIUM_NODE_IDENTITY", "CYCLIUM_ENV", "CYCLIUM_MIGRATE"]) {
      expect(unit).toMatch(new RegExp(`^Environment=${name}=`, "m"));
    }
    // systemd's own check where this machine has it (it does in CI's Ubuntu image).
    const analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].find((file) =>
      fs.existsSync(file),
    );
    if (analyze) {
      const { stderr } = await run(analyze, ["verify", unitPath]);
      expect(stderr).toBe("");
    }
  });
});
