import { randomBytes } from "node:crypto";
import { insertUser, USER_ROLES, type UserRole } from "@cyclium/core/users";
import pg from "pg";
import { UsageError } from "./env";
import { withDatabase } from "./with-database";

/** NIST SP 800-63B: length over composition; the console's own minimum. */
const MIN_PASSWORD_LENGTH = 12;

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
  const email = args.email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+$/.test(email))
    throw new UsageError(`--email: "${args.email}" is not an email address`);
  if (!(USER_ROLES as readonly string[]).includes(args.role)) {
    throw new UsageError(`--role: must be one of ${USER_ROLES.join(", ")} (got "${args.role}")`);
  }
  const role = args.role as UserRole;
  const piped = io.stdin.isTTY ? "" : await readAll(io.stdin);
  // One trailing newline is how `echo` and most pipes end a line; it is not part of the password.
  const given = piped.replace(/\r?\n$/, "");
  if (given !== "" && given.length < MIN_PASSWORD_LENGTH) {
    throw new UsageError(
      `password: at least ${MIN_PASSWORD_LENGTH} characters (stdin had ${given.length})`,
    );
  }
  const password = given === "" ? randomBytes(15).toString("base64url") : given;
  await withDatabase(io.log, async (url) => {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      const result = await insertUser({ email, name: args.name ?? email, password, role }, pool);
      if (result.kind === "conflict") {
        throw new UsageError(`A user with the email ${email} already exists.`);
      }
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
