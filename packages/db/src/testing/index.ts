// `@cyclium/db/testing` in this workspace: the shipped kit plus Prisma Client, which only the
// benchmark comparing it with core's SQL uses (docs/schema.md). The package is built from
// ./kit.ts instead (tsup.config.ts), so an installed @cyclium/db needs no Prisma at all:
// @prisma/client and the TypeScript it pulls in were 72 MB of a 131 MB production install.
export * from "./kit";
export { createPrismaClient, PrismaClient } from "../prisma-client";
