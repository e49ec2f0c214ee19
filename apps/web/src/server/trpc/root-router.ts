import { createCallerFactory, createTrpcRouter } from "./init";
import { authRouter } from "./routers/auth";
import { overviewRouter } from "./routers/overview";

export const appRouter = createTrpcRouter({
  auth: authRouter,
  overview: overviewRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
