import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, pageFromRows } from "./keyset-cursor";

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
