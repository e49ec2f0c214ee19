import { describe, expect, it } from "vitest";
import { methodNotAllowed, restError, restJson } from "./rest-response";

describe("REST responses", () => {
  it("are never cached and never sniffed", () => {
    for (const response of [restJson({ ok: true }), restError(400, "invalid_input", "bad")]) {
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  it("answer another method 405 with a JSON body and Allow", async () => {
    const response = methodNotAllowed("POST")(
      new Request("http://console.test/api/v1/tenants/default/triggers/x/fire", {
        method: "DELETE",
      }),
    );
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect(await response.json()).toEqual({
      code: "method_not_allowed",
      error: "DELETE is not allowed here; use POST.",
    });
  });
});
