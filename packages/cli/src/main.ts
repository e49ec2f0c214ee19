import { parseArgs } from "node:util";
import { MigrationError } from "@cyclium/db";
import { UsageError } from "./env";
import { migrateCommand } from "./migrate-command";
import { userCreateCommand } from "./user-create-command";

const USAGE = `Usage:
  cyclium migrate
      Apply pending migrations to CYCLIUM_LISTEN_DATABASE_URL, else DATABASE_URL (or the
      embedded PostgreSQL under .data/).
  cyclium user create --email E --role admin|operator|viewer [--name N]
      Create a console user. The password is read from stdin when piped, else generated
      and printed once.`;

const log = (message: string): void => console.log(message);

async function main(argv: string[]): Promise<void> {
  const [command, sub] = argv;
  if (command === "migrate" && argv.length === 1) return migrateCommand(log);
  if (command === "user" && sub === "create") {
    const { values } = parseArgs({
      args: argv.slice(2),
      options: {
        email: { type: "string" },
        role: { type: "string" },
        name: { type: "string" },
      },
      strict: true,
    });
    if (values.email === undefined) throw new UsageError("--email is required");
    if (values.role === undefined) throw new UsageError("--role is required");
    return userCreateCommand(
      { email: values.email, role: values.role, name: values.name },
      { stdin: process.stdin, log },
    );
  }
  if (command === undefined || command === "help" || command === "--help") {
    console.log(USAGE);
    return;
  }
  throw new UsageError(`unknown command "${argv.join(" ")}"\n${USAGE}`);
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  if (
    error instanceof UsageError ||
    (error instanceof TypeError &&
      "code" in error &&
      String(error.code).startsWith("ERR_PARSE_ARGS"))
  ) {
    console.error(`cyclium: ${error.message}`);
    process.exitCode = 2;
  } else if (error instanceof MigrationError) {
    console.error(error.message);
    process.exitCode = 1;
  } else {
    console.error(error);
    process.exitCode = 1;
  }
}
