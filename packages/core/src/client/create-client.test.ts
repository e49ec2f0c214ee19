import pg from "pg";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { defineActor } from "../actors/index";
import { defineDeployment } from "../deployment/index";
import { isCycliumError } from "../errors/index";
import { noopStrategy } from "../runtime/testing/index";
import type { ClientFireResult } from "./client-types";
import { createClient } from "./create-client";
import { validateFire } from "./validate-fire";

const deployment = defineDeployment({
  actors: [
    defineActor({
      identifier: "billing",
      expectations: [
        {
          id: "invoice",
          strategy: noopStrategy,
          trigger: { manual: true },
          input: z.object({ customerId: z.string(), amount: z.number().int().positive() }),
        },
        { id: "remind", strategy: noopStrategy, trigger: { manual: true } },
      ],
    }),
    defineActor({
      identifier: "reports",
      expectations: [{ id: "daily", strategy: noopStrategy, trigger: { manual: true } }],
    }),
  ],
});

// A pool that never connects: these tests fire nothing (types are checked by typecheck, the
// validation throws before any query).
const pool = new pg.Pool({ connectionString: "postgres://nobody@127.0.0.1:1/none" });

describe("createClient typed by the deployment", () => {
  it("accepts the deployment's actors, expectations and inputs only (typecheck)", () => {
    const client = createClient({ pool }, { deployment });
    // Type-level only: these calls are never awaited against a database.
    const typed = (): void => {
      void client.fire({
        actorId: "billing",
        expectationId: "invoice",
        input: { customerId: "c1", amount: 3 },
      });
      void client.fire({ actorId: "billing", expectationId: "remind" });
      void client.fire({ actorId: "reports", expectationId: "daily", input: { any: 1 } });
      // @ts-expect-error unknown actor
      void client.fire({ actorId: "payroll", expectationId: "invoice" });
      // @ts-expect-error "daily" is an expectation of reports, not billing
      void client.fire({ actorId: "billing", expectationId: "daily" });
      void client.fire({
        actorId: "billing",
        expectationId: "invoice",
        // @ts-expect-error amount must be a number
        input: { customerId: "c1", amount: "3" },
      });
      // @ts-expect-error invoice needs its input
      void client.fire({ actorId: "billing", expectationId: "invoice" });
    };
    expect(typeof typed).toBe("function");
    expectTypeOf(client.fire<"billing", "invoice">)
      .parameter(0)
      .toHaveProperty("input")
      .toEqualTypeOf<{ customerId: string; amount: number }>();
    expectTypeOf(client.fire).returns.resolves.toEqualTypeOf<ClientFireResult>();
  });

  it("an untyped client takes any actor and input", () => {
    const client = createClient({ pool });
    expectTypeOf(client.fire<string, string>)
      .parameter(0)
      .toHaveProperty("actorId")
      .toEqualTypeOf<string>();
  });
});

describe("validateFire (plain JavaScript)", () => {
  const fieldOf = (request: unknown): unknown => {
    try {
      validateFire(request, deployment);
    } catch (error) {
      if (isCycliumError(error, "invalid_input")) return error.details?.field;
      throw error;
    }
    return undefined;
  };

  it("names the field of an unknown actor, expectation or bad input", () => {
    expect(fieldOf({ actorId: "payroll", expectationId: "invoice" })).toBe("actorId");
    expect(fieldOf({ actorId: "billing", expectationId: "daily" })).toBe("expectationId");
    expect(
      fieldOf({
        actorId: "billing",
        expectationId: "invoice",
        input: { customerId: "c1", amount: "3" },
      }),
    ).toBe("input.amount");
    expect(fieldOf({ actorId: "billing", expectationId: "invoice" })).toBe("input");
    expect(fieldOf({ actorId: 7, expectationId: "x" })).toBe("actorId");
  });

  it("passes a good fire with the schema's parsed input", () => {
    expect(
      validateFire(
        {
          actorId: "billing",
          expectationId: "invoice",
          input: { customerId: "c1", amount: 3, extra: 1 },
        },
        deployment,
      ),
    ).toEqual({
      actorId: "billing",
      expectationId: "invoice",
      input: { customerId: "c1", amount: 3 },
      timing: {},
    });
    expect(() =>
      validateFire({ actorId: "anything", expectationId: "x", input: 1 }, undefined),
    ).not.toThrow();
  });

  it("the message says what is wrong", () => {
    expect(() => validateFire({ actorId: "billing", expectationId: "daily" }, deployment)).toThrow(
      /actor "billing" has no expectation "daily" \(it has: invoice, remind\)/,
    );
  });
});
