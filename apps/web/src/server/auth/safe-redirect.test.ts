import { describe, expect, it } from "vitest";
import { safeNextPath } from "./safe-redirect";

/** What a browser does with `Location: <path>` on a page of https://console.example. */
function browserDestination(location: string): URL {
  return new URL(location, "https://console.example/sign-in");
}

describe("safeNextPath", () => {
  it("keeps paths on the console, query and hash included", () => {
    expect(safeNextPath("/episodes?status=failed&env=default")).toBe(
      "/episodes?status=failed&env=default",
    );
    expect(safeNextPath("/episodes/0195b6a4-0000-7000-8000-000000000000#steps")).toBe(
      "/episodes/0195b6a4-0000-7000-8000-000000000000#steps",
    );
    expect(safeNextPath("/triggers/a%2Fb")).toBe("/triggers/a%2Fb");
  });

  it.each([
    ["tab", "/\t/evil.example"],
    ["tab before the slashes", "\t//evil.example"],
    ["newline", "/\n/evil.example"],
    ["carriage return and newline", "/x\r\nSet-Cookie: a=b"],
    ["NUL", "/\u0000/evil.example"],
    ["backslash", "/\\evil.example"],
    ["backslash after a slash", "/\\/evil.example"],
    ["two backslashes", "\\\\evil.example"],
    ["protocol-relative", "//evil.example"],
    ["protocol-relative with a path", "//evil.example/episodes"],
    ["three slashes", "///evil.example"],
    ["dot segment to protocol-relative", "/.//evil.example"],
    ["dot-dot segment to protocol-relative", "/a/..//evil.example"],
    ["absolute https", "https://evil.example/"],
    ["absolute with our own look", "https://console.example.evil.example/"],
    ["scheme-relative javascript", "javascript:alert(1)"],
    ["data URL", "data:text/html,<script>alert(1)</script>"],
    ["relative path", "episodes"],
    ["empty", ""],
    ["sign-in loop", "/sign-in?next=/sign-in"],
    ["too long", `/${"a".repeat(5000)}`],
  ])("refuses %s", (_name, next) => {
    expect(safeNextPath(next)).toBe("/");
  });

  it.each([
    // What the page receives after Next decoded `?next=…` once.
    ["%2F%09%2Fevil.example", decodeURIComponent("%2F%09%2Fevil.example")],
    ["%2F%0A%2Fevil.example", decodeURIComponent("%2F%0A%2Fevil.example")],
    ["%2F%5Cevil.example", decodeURIComponent("%2F%5Cevil.example")],
    ["%2F%2Fevil.example", decodeURIComponent("%2F%2Fevil.example")],
    // Still encoded (decoded twice by nobody): not path-absolute, or a harmless literal path.
    ["raw %2F%09%2Fevil.example", "%2F%09%2Fevil.example"],
    ["raw %5C%5Cevil.example", "%5C%5Cevil.example"],
  ])("refuses the encoded variant %s", (_name, next) => {
    expect(safeNextPath(next)).toBe("/");
  });

  it("keeps an encoded tab or backslash inside a path on the console", () => {
    for (const next of ["/%09/evil.example", "/%5Cevil.example", "/%2F%2Fevil.example"]) {
      const kept = safeNextPath(next);
      expect(browserDestination(kept).origin).toBe("https://console.example");
    }
  });

  it.each([undefined, null, 42, ["/a", "/b"], { toString: () => "/x" }])(
    "refuses a non-string %s",
    (next) => {
      expect(safeNextPath(next)).toBe("/");
    },
  );

  it("always answers a valid Location header that stays on the console", () => {
    const pieces = [
      "/",
      "\\",
      "\t",
      "\n",
      "\r",
      "\u0000",
      "%2F",
      "%5C",
      "%09",
      ".",
      "..",
      "@",
      ":",
    ];
    pieces.push("evil.example", "é", "\u2028", "?", "#", " ", "\ud800");
    let checked = 0;
    for (const a of pieces)
      for (const b of pieces)
        for (const c of pieces) {
          const next = `/${a}${b}${c}evil.example`;
          const target = safeNextPath(next);
          // new Headers throws on the characters that made the sign-in redirect a 500.
          expect(() => new Headers({ location: target })).not.toThrow();
          expect(target.startsWith("/") && !target.startsWith("//")).toBe(true);
          expect(browserDestination(target).origin).toBe("https://console.example");
          checked++;
        }
    expect(checked).toBe(pieces.length ** 3);
  });
});
