import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTriggerEndpoints } from "../rest/trigger-endpoints";
import { createCaller } from "../trpc/root-router";
import { signIn } from "./sign-in";
import { testContext } from "./testing/auth-test-kit";

// The first admin, as a new team makes it: `cyclium migrate` on an empty database, then
// `cyclium user create` (real processes), then the admin signs in through the console's
// sign-in, creates a viewer and an API token, and the token authorizes a REST call.
const CLI = fileURLToPath(new URL("../../../../../packages/cli/bin/cyclium.mjs", import.meta.url));

let database: TestDatabase;

beforeAll(async () => {
  // template0: an empty database, so `cyclium migrate` has every migration to apply.
  database = await createTestDatabase({
    templateDatabase: "template0",
    prefix: "cyclium_test_cli",
  });
});

afterAll(async () => {
  await database?.drop();
});

function cyclium(
  args: string[],
  stdin?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, DATABASE_URL: database.url },
      stdio: [stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    if (stdin !== undefined) child.stdin?.end(stdin);
  });
}

async function signInAs(email: string, password: string) {
  const result = await signIn({
    db: database.pool,
    input: { email, password },
    ip: null,
    userAgent: null,
  });
  if (result.kind !== "signed_in") throw new Error(`sign-in of ${email} failed: ${result.kind}`);
  return result.principal;
}

describe("cyclium CLI: migrate and the first admin", () => {
  it("migrates an empty database, then says it is up to date", async () => {
    const first = await cyclium(["migrate"]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/Applied \d+ migration\(s\)\./);
    const again = await cyclium(["migrate"]);
    expect(again.stdout).toMatch(/Database is up to date/);
  }, 60_000);

  it("creates an admin from a piped password, who signs in, makes a viewer and a working API token", async () => {
    const created = await cyclium(
      ["user", "create", "--email", "First.Admin@Example.test", "--role", "admin"],
      "a long admin password\n",
    );
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    expect(created.stdout).toContain("Created admin first.admin@example.test");
    expect(created.stdout).not.toContain("Password");

    const principal = await signInAs("first.admin@example.test", "a long admin password");
    expect(principal.role).toBe("admin");
    const admin = createCaller(testContext(database.pool, principal));
    const viewer = await admin.admin.users.create({
      email: "viewer@example.test",
      name: "Viewer",
      password: "a long viewer password",
      role: "viewer",
    });
    expect(viewer.role).toBe("viewer");
    const { token } = await admin.admin.tokens.create({ name: "dashboards", role: "viewer" });

    const endpoints = createTriggerEndpoints({
      getDb: () => database.pool,
      getTriggerServices: () => null,
    });
    const list = (bearer: string) =>
      endpoints.list(
        new Request("http://console.test/api/v1/tenants/default/triggers", {
          headers: { authorization: `Bearer ${bearer}` },
        }),
        { params: Promise.resolve({ t: "default" }) },
      );
    const allowed = await list(token);
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toMatchObject({ tenant_id: "default", items: [] });
    expect((await list(`${token}x`)).status).toBe(401);
  }, 60_000);

  it("generates and prints a password once when nothing is piped; refuses a taken email", async () => {
    const created = await cyclium([
      "user",
      "create",
      "--email",
      "ops@example.test",
      "--role",
      "operator",
    ]);
    expect(created.code).toBe(0);
    const password = /Password \(shown once\): (\S+)/.exec(created.stdout)?.[1];
    expect(password).toBeDefined();
    expect((await signInAs("ops@example.test", password ?? "")).role).toBe("operator");

    const again = await cyclium(
      ["user", "create", "--email", "ops@example.test", "--role", "admin"],
      "another long password\n",
    );
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("already exists");
    expect((await signInAs("ops@example.test", password ?? "")).role).toBe("operator");
  }, 60_000);

  it("names a bad role or a short password, exit code 2", async () => {
    const role = await cyclium(["user", "create", "--email", "x@example.test", "--role", "root"]);
    expect(role.code).toBe(2);
    expect(role.stderr).toContain("--role: must be one of admin, operator, viewer");
    const short = await cyclium(
      ["user", "create", "--email", "x@example.test", "--role", "viewer"],
      "short\n",
    );
    expect(short.code).toBe(2);
    expect(short.stderr).toContain("at least 12 characters");
  }, 60_000);

  it("applies the console's password and email rules, naming the rule, and audits a creation", async () => {
    const weak = await cyclium(
      ["user", "create", "--email", "weak@example.test", "--role", "admin"],
      "password1234\n",
    );
    expect(weak.code).toBe(2);
    expect(weak.stderr).toContain("password (stdin): Too easy to guess");
    expect(weak.stderr).toContain("commonly used password");
    const spaces = await cyclium(
      ["user", "create", "--email", "weak@example.test", "--role", "admin"],
      `${" ".repeat(12)}\n`,
    );
    expect(spaces.code).toBe(2);
    expect(spaces.stderr).toContain("Too easy to guess");
    const email = await cyclium(
      ["user", "create", "--email", "<script>alert(1)</script>@", "--role", "viewer"],
      "a long viewer password\n",
    );
    expect(email.code).toBe(2);
    expect(email.stderr).toContain("--email:");
    expect(email.stderr).toContain("Enter a valid email address.");
    const { rows: refusedUsers } = await database.pool.query(
      "SELECT 1 FROM cyclium_users WHERE email IN ('weak@example.test') OR email LIKE '%script%'",
    );
    expect(refusedUsers).toHaveLength(0);

    const created = await cyclium(
      ["user", "create", "--email", "audited@example.test", "--role", "operator"],
      "a long operator password\n",
    );
    expect(created.code).toBe(0);
    const { rows } = await database.pool.query<{ principal: string; outcome: string }>(
      `SELECT principal, outcome, detail FROM cyclium_audit_log
        WHERE action = 'admin.users.create' AND target = 'audited@example.test'`,
    );
    expect(rows).toEqual([
      expect.objectContaining({
        principal: expect.stringMatching(/^cli:/) as unknown,
        outcome: "ok",
        detail: expect.objectContaining({ role: "operator", via: "cli" }) as unknown,
      }),
    ]);
  }, 60_000);

  it("refuses a weak password in the console's user form too (the same rule)", async () => {
    const principal = await signInAs("first.admin@example.test", "a long admin password");
    const admin = createCaller(testContext(database.pool, principal));
    await expect(
      admin.admin.users.create({
        email: "weak2@example.test",
        name: "Weak",
        password: "password1234",
        role: "viewer",
      }),
    ).rejects.toThrow(/Too easy to guess/);
  }, 60_000);
});
