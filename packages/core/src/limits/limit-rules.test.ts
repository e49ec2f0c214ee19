import { describe, expect, it } from "vitest";
import { claimCap, limitRulesFor } from "./limit-rules";

const episode = { actorId: "llm", expectationId: "chat", sourceEnv: "prod", input: { c: "acme" } };

describe("limitRulesFor", () => {
  it("gives the actor's rules, then the expectation's, keyed by env and input", () => {
    const rules = limitRulesFor(episode, {
      actor: { concurrency: { global: 5 }, rateLimit: { limit: 60, periodMs: 60_000 } },
      expectation: {
        concurrency: { perKey: { key: (input) => (input as { c: string }).c, limit: 1 } },
        rateLimit: { limit: 2, periodMs: 1_000, key: () => "gpt" },
      },
    });
    expect(rules).toEqual([
      { k: "global:prod/llm", c: "concurrency", l: 5 },
      { k: "rate:prod/llm", c: "rate", l: 60, p: 60_000 },
      { k: "key:prod/llm/chat:acme", c: "concurrency", l: 1 },
      { k: "rate:prod/llm/chat:gpt", c: "rate", l: 2, p: 1_000 },
    ]);
  });

  it("still keys an episode whose key function throws: it waits with the others", () => {
    const rules = limitRulesFor(episode, {
      expectation: {
        concurrency: {
          perKey: {
            key: () => {
              throw new Error("no customer");
            },
            limit: 1,
          },
        },
      },
    });
    expect(rules).toEqual([
      { k: "key:prod/llm/chat:<key function threw>", c: "concurrency", l: 1 },
    ]);
  });
});

describe("claimCap", () => {
  it("is the smallest unkeyed limit, or none", () => {
    expect(claimCap({ concurrency: { global: 5 }, rateLimit: { limit: 3, periodMs: 1 } })).toBe(3);
    expect(claimCap({ rateLimit: { limit: 3, periodMs: 1, key: () => "k" } })).toBeUndefined();
    expect(claimCap({})).toBeUndefined();
  });
});
