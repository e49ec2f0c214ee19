import { defineConfig } from "prisma/config";

// The CLI is used only for `prisma generate`: migrations are applied by our own migrator
// (packages/db/src/migrate), which records them in `_prisma_migrations` as Prisma does.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
