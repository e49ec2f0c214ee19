import { describe, expectTypeOf, it } from "vitest";
import type * as Prisma from "./generated/prisma/models";
import type * as Rows from "./generated/rows";

// The shipped row types (plain interfaces, scripts/generate-row-types.mjs) must be exactly
// Prisma Client's model types, field for field: checked by the compiler (`tsc` of this package
// runs over this file); the test body only makes the check visible in a test run.
describe("the generated row types", () => {
  it("equal Prisma Client's model types for every model of the schema", () => {
    expectTypeOf<Rows.EpisodeModel>().toEqualTypeOf<Prisma.EpisodeModel>();
    expectTypeOf<Rows.EpisodeStepModel>().toEqualTypeOf<Prisma.EpisodeStepModel>();
    expectTypeOf<Rows.EpisodeCheckpointModel>().toEqualTypeOf<Prisma.EpisodeCheckpointModel>();
    expectTypeOf<Rows.EpisodeWaitModel>().toEqualTypeOf<Prisma.EpisodeWaitModel>();
    expectTypeOf<Rows.SignalModel>().toEqualTypeOf<Prisma.SignalModel>();
    expectTypeOf<Rows.EpisodeOutputModel>().toEqualTypeOf<Prisma.EpisodeOutputModel>();
    expectTypeOf<Rows.EpisodeAttemptModel>().toEqualTypeOf<Prisma.EpisodeAttemptModel>();
    expectTypeOf<Rows.WorkClaimModel>().toEqualTypeOf<Prisma.WorkClaimModel>();
    expectTypeOf<Rows.TriggerRequestModel>().toEqualTypeOf<Prisma.TriggerRequestModel>();
    expectTypeOf<Rows.FindingModel>().toEqualTypeOf<Prisma.FindingModel>();
    expectTypeOf<Rows.AgentDefinitionModel>().toEqualTypeOf<Prisma.AgentDefinitionModel>();
    expectTypeOf<Rows.WorkflowInstanceModel>().toEqualTypeOf<Prisma.WorkflowInstanceModel>();
    expectTypeOf<Rows.TriggerModel>().toEqualTypeOf<Prisma.TriggerModel>();
    expectTypeOf<Rows.TriggerFiringModel>().toEqualTypeOf<Prisma.TriggerFiringModel>();
    expectTypeOf<Rows.ExpectationTurnModel>().toEqualTypeOf<Prisma.ExpectationTurnModel>();
    expectTypeOf<Rows.ModeOverrideModel>().toEqualTypeOf<Prisma.ModeOverrideModel>();
    expectTypeOf<Rows.ConcurrencyOverrideModel>().toEqualTypeOf<Prisma.ConcurrencyOverrideModel>();
    expectTypeOf<Rows.NodeModel>().toEqualTypeOf<Prisma.NodeModel>();
    expectTypeOf<Rows.TelemetryModel>().toEqualTypeOf<Prisma.TelemetryModel>();
    expectTypeOf<Rows.RecoverySweepModel>().toEqualTypeOf<Prisma.RecoverySweepModel>();
    expectTypeOf<Rows.TelemetryHourlyModel>().toEqualTypeOf<Prisma.TelemetryHourlyModel>();
    expectTypeOf<Rows.PrunerRunModel>().toEqualTypeOf<Prisma.PrunerRunModel>();
    expectTypeOf<Rows.AuditLogModel>().toEqualTypeOf<Prisma.AuditLogModel>();
    expectTypeOf<Rows.BusEventModel>().toEqualTypeOf<Prisma.BusEventModel>();
    expectTypeOf<Rows.UserModel>().toEqualTypeOf<Prisma.UserModel>();
    expectTypeOf<Rows.SessionModel>().toEqualTypeOf<Prisma.SessionModel>();
    expectTypeOf<Rows.SignInAttemptModel>().toEqualTypeOf<Prisma.SignInAttemptModel>();
    expectTypeOf<Rows.ApiTokenModel>().toEqualTypeOf<Prisma.ApiTokenModel>();
    expectTypeOf<Rows.ResourceModel>().toEqualTypeOf<Prisma.ResourceModel>();
  });
});
