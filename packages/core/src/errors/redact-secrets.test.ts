import { describe, expect, it } from "vitest";
import { CycliumError } from "./cyclium-error";
import { redactSecrets } from "./redact-secrets";

describe("redactSecrets", () => {
  it("hides the password of connection strings and keeps the rest", () => {
    expect(redactSecrets("mysql://app:S3cretPw@db/x")).toBe("mysql://app:***@db/x");
    expect(redactSecrets('{"url":"postgres://app:p%40ss@db:5432/app?sslmode=require"}')).toBe(
      '{"url":"postgres://app:***@db:5432/app?sslmode=require"}',
    );
    expect(redactSecrets("host=db user=app password=S3cretPw dbname=app")).toBe(
      "host=db user=app password=*** dbname=app",
    );
    expect(redactSecrets("password='S3cret Pw' host=db")).toBe("password=*** host=db");
  });

  it("leaves URLs without a password alone", () => {
    for (const text of [
      "postgres://app@db/x",
      "http://127.0.0.1:4000/metrics",
      "http://host:8080/a@b",
      "see https://example.com/x",
    ]) {
      expect(redactSecrets(text)).toBe(text);
    }
  });

  it("applies to CycliumError messages", () => {
    const error = new CycliumError("invalid_config", "cannot use postgres://a:S3cretPw@db/x");
    expect(error.message).toBe("cannot use postgres://a:***@db/x");
  });
});
