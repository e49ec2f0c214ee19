import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, pageFromRows, ZKeysetCursorText } from "./keyset-cursor";

describe("keyset cursors", () => {
  it("round-trip microsecond timestamps and ids", () => {
    const cursor = { at: "2026-11-29T10:00:00.123456", id: "0f8fad5b-d9cb-469f-a165-70867728950e" };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
  });

  it("refuse anything the console did not produce", () => {
    expect(decodeCursor("garbage")).toBeNull();
    expect(decodeCursor(Buffer.from("2026-11-29_1; DROP").toString("base64url"))).toBeNull();
  });

  it("trim the probe row and know their neighbours in both directions", () => {
    const rows = [3, 2, 1].map((n) => ({
      id: String(n),
      cursorAt: `2026-11-29T10:00:0${n}.000000`,
    }));
    const older = pageFromRows([...rows], { limit: 2, direction: "older", hasCursor: false });
    expect(older.rows.map((r) => r.id)).toEqual(["3", "2"]);
    expect(older.page.newerCursor).toBeNull();
    expect(decodeCursor(older.page.olderCursor ?? "")?.id).toBe("2");
    // Walking back: rows arrive oldest first and are returned newest first.
    const newer = pageFromRows([...rows].reverse(), {
      limit: 2,
      direction: "newer",
      hasCursor: true,
    });
    expect(newer.rows.map((r) => r.id)).toEqual(["2", "1"]);
    expect(decodeCursor(newer.page.newerCursor ?? "")?.id).toBe("2");
  });
});

describe("cursor validation per list (issue 13: right shape, parts that do not convert)", () => {
  const cursor = (at: string, id: string) => Buffer.from(`${at}_${id}`).toString("base64url");
  const uuid = "0195b6a4-0000-7000-8000-000000000000";

  it("accepts a real timestamp and an id of the list's type", () => {
    expect(
      ZKeysetCursorText("uuid").safeParse(cursor("2026-11-29T10:00:00.123456", uuid)).success,
    ).toBe(true);
    expect(
      ZKeysetCursorText("bigint").safeParse(cursor("2026-11-29T10:00:00.123456", "42")).success,
    ).toBe(true);
  });

  it.each([
    ["a day that does not exist", "2026-02-30T10:00:00.000000", uuid, "uuid"],
    ["month 13", "2026-13-01T10:00:00.000000", uuid, "uuid"],
    ["hour 25", "2026-11-29T25:00:00.000000", uuid, "uuid"],
    ["year 0", "0000-01-01T00:00:00.000000", uuid, "uuid"],
    ["a non-uuid id on a uuid list", "2026-11-29T10:00:00.000000", "abc", "uuid"],
    ["a uuid on a bigint list", "2026-11-29T10:00:00.000000", uuid, "bigint"],
    [
      "a bigint past PostgreSQL's range",
      "2026-11-29T10:00:00.000000",
      "9223372036854775808",
      "bigint",
    ],
  ] as const)("refuses %s", (_name, at, id, kind) => {
    const result = ZKeysetCursorText(kind).safeParse(cursor(at, id));
    expect(result.success).toBe(false);
  });
});
