import { createCallerFactory, createTrpcRouter } from "./init";
import { adminRouter } from "./routers/admin";
import { authRouter } from "./routers/auth";
import { overviewRouter } from "./routers/overview";

export const appRouter = createTrpcRouter({
  admin: adminRouter,
  auth: authRouter,
  overview: overviewRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
