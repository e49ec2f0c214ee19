import { describe, expect, it } from "vitest";
import type { AnyStrategy } from "./strategy";
import { StrategyRegistry, isStrategyRegistry } from "./strategy-registry";

const noop: AnyStrategy = {
  init: () => ({}),
  step: () => ({ kind: "complete", result: null }),
} as unknown as AnyStrategy;

describe("isStrategyRegistry", () => {
  it("recognises a registry made by another copy of core, by its shape", () => {
    // What a deployment module's own @cyclium/core would hand over: same methods, other class.
    class OtherCopyRegistry {
      readonly #inner = new StrategyRegistry({ noop });
      register() {
        return this;
      }
      get(name: string) {
        return this.#inner.get(name);
      }
      has(name: string) {
        return this.#inner.has(name);
      }
      names() {
        return this.#inner.names();
      }
    }
    const other = new OtherCopyRegistry();
    expect(other instanceof StrategyRegistry).toBe(false);
    expect(isStrategyRegistry(other)).toBe(true);
    expect(isStrategyRegistry(new StrategyRegistry())).toBe(true);
  });

  it("tells a record of strategies from a registry, even one named like a method", () => {
    expect(isStrategyRegistry({ noop })).toBe(false);
    expect(isStrategyRegistry({ get: noop, names: noop })).toBe(false);
    expect(isStrategyRegistry(undefined)).toBe(false);
  });
});
