import { describe, expect, it } from "vitest";
import { decodeWireMessage, encodeRef, serializeEvent } from "./bus-wire-format";
import { createBusEvent } from "./create-bus-event";

describe("bus wire format", () => {
  it("round-trips an inline event with its identity", () => {
    const event = createBusEvent("episode.completed", { episodeId: "e1" }, "node-a");
    expect(decodeWireMessage(serializeEvent(event))).toEqual({ kind: "inline", event });
  });

  it("decodes a reference to a stored event", () => {
    expect(decodeWireMessage(encodeRef("42", "big.topic"))).toEqual({
      kind: "ref",
      ref: "42",
      topic: "big.topic",
    });
    // PostgreSQL's json_build_object output, with its spacing and a numeric id.
    expect(decodeWireMessage('{"ref" : 7, "topic" : "t"}')).toEqual({
      kind: "ref",
      ref: "7",
      topic: "t",
    });
  });

  it("rejects notifications that are not bus messages instead of throwing", () => {
    expect(decodeWireMessage("not json")).toBeUndefined();
    expect(decodeWireMessage('{"hello":"world"}')).toBeUndefined();
    expect(decodeWireMessage("null")).toBeUndefined();
  });
});
