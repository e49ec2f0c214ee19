/**
 * The row types of Cyclium's tables, generated from prisma/schema.prisma (the schema a test
 * checks against the migrated database, see schema-agreement/). Types only: core derives its row
 * and domain types from these (packages/core/src/db/row-of.ts), so a column is written in the
 * SQL migration and in schema.prisma and nowhere else. Plain interfaces (scripts/
 * generate-row-types.mjs) rather than Prisma Client's model types, so an installed package needs
 * no Prisma for its types; models.test.ts checks the two agree.
 */
export type {
  AgentDefinitionModel,
  ApiTokenModel,
  AuditLogModel,
  EpisodeAttemptModel,
  EpisodeCheckpointModel,
  EpisodeModel,
  EpisodeOutputModel,
  EpisodeStepModel,
  EpisodeWaitModel,
  FindingModel,
  ConcurrencyOverrideModel,
  ModeOverrideModel,
  NodeModel,
  RecoverySweepModel,
  SessionModel,
  SignalModel,
  TriggerFiringModel,
  TriggerModel,
  TriggerRequestModel,
  UserModel,
  WorkClaimModel,
  WorkflowInstanceModel,
} from "./generated/rows";
