// A throwaway npm registry (Verdaccio, the workspace's devDependency) as a real child process:
// its config and storage under a temp dir, @cyclium/* served only from what is published to it,
// everything else proxied to registry.npmjs.org, so a scratch project installs by name.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { freePort } from "@cyclium/db/testing";

export interface LocalRegistry {
  /** e.g. http://127.0.0.1:41234/ */
  url: string;
  /** A token that may publish @cyclium/* (a user registered at start). */
  token: string;
  stop(): Promise<void>;
}

export async function startLocalRegistry(dir: string): Promise<LocalRegistry> {
  const port = await freePort();
  await fs.mkdir(dir, { recursive: true });
  const config = path.join(dir, "verdaccio.yaml");
  await fs.writeFile(
    config,
    [
      `storage: ${JSON.stringify(path.join(dir, "storage"))}`,
      "auth:",
      "  htpasswd:",
      `    file: ${JSON.stringify(path.join(dir, "htpasswd"))}`,
      "uplinks:",
      "  npmjs:",
      "    url: https://registry.npmjs.org/",
      "packages:",
      "  '@cyclium/*':",
      "    access: $all",
      "    publish: $authenticated",
      "  '**':",
      "    access: $all",
      "    proxy: npmjs",
      "log: { type: stdout, format: pretty, level: warn }",
      "",
    ].join("\n"),
  );
  // Its bin, found from its package.json (the only other subpath its exports allow).
  const manifest = createRequire(import.meta.url).resolve("verdaccio/package.json");
  const bin = path.join(path.dirname(manifest), "bin/verdaccio");
  const child: ChildProcess = spawn(
    process.execPath,
    [bin, "--config", config, "--listen", `127.0.0.1:${port}`],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const output: string[] = [];
  child.stdout?.on("data", (chunk: Buffer) => output.push(chunk.toString("utf8")));
  child.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString("utf8")));
  const url = `http://127.0.0.1:${port}/`;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  // Ready once it answers; give up if it exits first.
  let alive = true;
  void exited.then(() => (alive = false));
  for (;;) {
    if (!alive) throw new Error(`verdaccio exited before serving:\n${output.join("")}`);
    const ok = await fetch(`${url}-/ping`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  // `npm adduser` without a prompt: the registry's user endpoint hands back a token.
  const response = await fetch(`${url}-/user/org.couchdb.user:team`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "team", password: "throwaway-password" }),
  });
  const { token } = (await response.json()) as { token?: string };
  if (!response.ok || !token) throw new Error(`verdaccio refused the user (${response.status})`);

  return {
    url,
    token,
    stop: async () => {
      if (alive) child.kill("SIGTERM");
      await exited;
    },
  };
}
