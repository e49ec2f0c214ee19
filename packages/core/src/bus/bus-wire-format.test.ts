import { describe, expect, it } from "vitest";
import { decodeWireMessage, encodeBatch, encodeRef, serializeEvent } from "./bus-wire-format";
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

  it("decodes a batch of inline events in order; a batch of one is a plain event", () => {
    const first = createBusEvent("episode.completed", { episodeId: "e1" }, "node-a");
    const second = createBusEvent("episode.failed", { episodeId: "e2" }, "node-a");
    expect(decodeWireMessage(encodeBatch([serializeEvent(first), serializeEvent(second)]))).toEqual(
      { kind: "batch", events: [first, second] },
    );
    expect(decodeWireMessage(encodeBatch([serializeEvent(first)]))).toEqual({
      kind: "inline",
      event: first,
    });
    // A malformed element is skipped, not its neighbours.
    expect(decodeWireMessage(`{"batch":[{"nope":1},${serializeEvent(second)}]}`)).toEqual({
      kind: "batch",
      events: [second],
    });
    expect(decodeWireMessage('{"batch":[]}')).toBeUndefined();
  });

  it("rejects notifications that are not bus messages instead of throwing", () => {
    expect(decodeWireMessage("not json")).toBeUndefined();
    expect(decodeWireMessage('{"hello":"world"}')).toBeUndefined();
    expect(decodeWireMessage("null")).toBeUndefined();
  });
});
