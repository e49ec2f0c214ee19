import { describe, expect, it } from "vitest";
import { createWorkerLogger } from "./worker-logger";

describe("createWorkerLogger", () => {
  it("never writes the password of a connection string, in a message or an error", () => {
    const lines: string[] = [];
    const logger = createWorkerLogger({
      level: "info",
      node: "n1",
      destination: { write: (line: string) => void lines.push(line) },
    });
    const url = "postgres://app:S3cretPw@db:5432/app";
    logger.info({ url }, `connecting to ${url}`);
    logger.error({ err: new Error(`could not reach ${url}`) }, "start failed");
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).not.toContain("S3cretPw");
      expect(line).toContain("postgres://app:***@db:5432/app");
    }
  });
});
