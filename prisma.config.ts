import { defineConfig } from "prisma/config";

// The CLI reads the connection here; the app connects through the pg driver adapter (lib/db/client.ts).
export default defineConfig({
  schema: "prisma/schema",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/fan_engagement" },
});
