import { parseArgs } from "node:util";
import { MigrationError } from "@cyclium/db";
import { UsageError } from "./env";
import { migrateCommand } from "./migrate-command";
import { pruneCommand } from "./prune-command";
import { userCreateCommand } from "./user-create-command";

const USAGE = `Usage:
  cyclium migrate
      Apply pending migrations to CYCLIUM_LISTEN_DATABASE_URL, else DATABASE_URL (or the
      embedded PostgreSQL under .data/).
  cyclium user create --email E --role admin|operator|viewer [--name N]
      Create a console user. The password is read from stdin when piped, else generated
      and printed once.
  cyclium prune [--max-batches N]
      Delete finished history past its retention (CYCLIUM_RETENTION_*, docs/retention.md)
      now, once, under the pruner's cluster-wide claim.`;

const log = (message: string): void => console.log(message);

async function main(argv: string[]): Promise<void> {
  const [command, sub] = argv;
  if (command === "migrate" && argv.length === 1) return migrateCommand(log);
  if (command === "prune") {
    const { values } = parseArgs({
      args: argv.slice(1),
      options: { "max-batches": { type: "string" } },
      strict: true,
    });
    const raw = values["max-batches"];
    const maxBatches = raw === undefined ? undefined : Number(raw);
    if (maxBatches !== undefined && !(Number.isInteger(maxBatches) && maxBatches > 0)) {
      throw new UsageError("--max-batches must be a positive integer");
    }
    return pruneCommand({ maxBatches }, log);
  }
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
