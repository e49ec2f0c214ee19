import { randomBytes } from "node:crypto";
import { hostname, userInfo } from "node:os";
import {
  insertAuditEntry,
  insertUser,
  passwordProblem,
  USER_ROLES,
  ZUserEmail,
  type UserRole,
} from "@cyclium/core/console";
import pg from "pg";
import { UsageError } from "./env";
import { hashPassword } from "./password-hash";
import { withDatabase } from "./with-database";

export interface UserCreateArgs {
  email: string;
  role: string;
  name?: string | undefined;
}

/**
 * `cyclium user create --email E --role admin|operator|viewer [--name N]`: the password is read
 * from stdin when something is piped in, else generated and printed once (only its Argon2id hash
 * is stored). An existing email is refused, never overwritten.
 */
export async function userCreateCommand(
  args: UserCreateArgs,
  io: { stdin: NodeJS.ReadStream; log: (message: string) => void },
): Promise<void> {
  const parsedEmail = ZUserEmail.safeParse(args.email);
  if (!parsedEmail.success) {
    const why = parsedEmail.error.issues[0]?.message ?? "Enter a valid email address.";
    throw new UsageError(`--email: "${args.email}" is not accepted: ${why}`);
  }
  const email = parsedEmail.data;
  if (!(USER_ROLES as readonly string[]).includes(args.role)) {
    throw new UsageError(`--role: must be one of ${USER_ROLES.join(", ")} (got "${args.role}")`);
  }
  const role = args.role as UserRole;
  const piped = io.stdin.isTTY ? "" : await readAll(io.stdin);
  // One trailing newline is how `echo` and most pipes end a line; it is not part of the password.
  const given = piped.replace(/\r?\n$/, "");
  // The console's rule (core console/users/password-policy.ts): length, then strength against common
  // passwords and the account's own email and name.
  const problem = given === "" ? null : passwordProblem(given, [email, args.name ?? ""]);
  if (problem !== null) throw new UsageError(`password (stdin): ${problem}`);
  const password = given === "" ? randomBytes(15).toString("base64url") : given;
  await withDatabase(io.log, async (url) => {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      const passwordHash = await hashPassword(password);
      const result = await insertUser(
        { email, name: args.name ?? email, passwordHash, role },
        pool,
      );
      if (result.kind === "conflict") {
        throw new UsageError(`A user with the email ${email} already exists.`);
      }
      // The CLI's own row in the console's audit log, as the console's user form writes one.
      await insertAuditEntry(pool, {
        userId: null,
        principal: `cli:${userInfo().username}`,
        action: "admin.users.create",
        target: email,
        outcome: "ok",
        ip: null,
        detail: { role, via: "cli", host: hostname() },
      });
      io.log(`Created ${role} ${email} (id ${result.userId}).`);
      if (given === "") io.log(`Password (shown once): ${password}`);
    } finally {
      await pool.end();
    }
  });
}

async function readAll(stream: NodeJS.ReadStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString("utf8");
}
