import { describe, expect, it } from "vitest";
import { readWorkerEnv, workerSettingsFromEnv } from "./env";
import { preparedStatementsOn } from "./prepared-statements";

const direct = "postgresql://db.internal:5432/cyclium";
const pooler = "postgresql://pgbouncer.internal:6432/cyclium";

describe("preparedStatementsOn", () => {
  it("is on for a direct connection and off behind a pooler, unless set", () => {
    expect(preparedStatementsOn(undefined, direct, direct)).toBe(true);
    expect(preparedStatementsOn(undefined, pooler, direct)).toBe(false);
    expect(preparedStatementsOn(true, pooler, direct)).toBe(true);
    expect(preparedStatementsOn(false, direct, direct)).toBe(false);
  });

  it("reads CYCLIUM_PREPARED_STATEMENTS, unset when absent", () => {
    const of = (value?: string) =>
      workerSettingsFromEnv(readWorkerEnv({ CYCLIUM_PREPARED_STATEMENTS: value }))
        .preparedStatements;
    expect(of("false")).toBe(false);
    expect(of("true")).toBe(true);
    expect(of()).toBeUndefined();
  });
});
