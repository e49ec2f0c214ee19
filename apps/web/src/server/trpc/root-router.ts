import { createCallerFactory, createTrpcRouter } from "./init";
import { overviewRouter } from "./routers/overview";

export const appRouter = createTrpcRouter({
  overview: overviewRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
