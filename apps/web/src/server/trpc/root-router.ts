import { createCallerFactory, createTrpcRouter } from "./init";
import { actorsRouter } from "./routers/actors";
import { adminRouter } from "./routers/admin";
import { agentDefinitionsRouter } from "./routers/agent-definitions";
import { auditLogRouter } from "./routers/audit-log";
import { attemptsRouter } from "./routers/attempts";
import { authRouter } from "./routers/auth";
import { claimsRouter } from "./routers/claims";
import { envsRouter } from "./routers/envs";
import { episodesRouter } from "./routers/episodes";
import { findingsRouter } from "./routers/findings";
import { liveRouter } from "./routers/live";
import { modesRouter } from "./routers/modes";
import { overviewRouter } from "./routers/overview";
import { prunerRouter } from "./routers/pruner";
import { recoveryRouter } from "./routers/recovery";
import { telemetryRouter } from "./routers/telemetry";
import { triggerRequestsRouter } from "./routers/trigger-requests";
import { triggersRouter } from "./routers/triggers";
import { workflowsRouter } from "./routers/workflows";

export const appRouter = createTrpcRouter({
  actors: actorsRouter,
  admin: adminRouter,
  agentDefinitions: agentDefinitionsRouter,
  attempts: attemptsRouter,
  auditLog: auditLogRouter,
  auth: authRouter,
  claims: claimsRouter,
  envs: envsRouter,
  episodes: episodesRouter,
  findings: findingsRouter,
  live: liveRouter,
  modes: modesRouter,
  overview: overviewRouter,
  pruner: prunerRouter,
  recovery: recoveryRouter,
  telemetry: telemetryRouter,
  triggerRequests: triggerRequestsRouter,
  triggers: triggersRouter,
  workflows: workflowsRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
