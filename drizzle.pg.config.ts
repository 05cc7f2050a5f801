import { defineConfig } from "drizzle-kit";

/** The PostgreSQL twin of drizzle.config.ts: same tables (src/db/pg-schema.ts), its own migrations. */
export default defineConfig({ dialect: "postgresql", schema: "./src/db/pg-schema.ts", out: "./migrations-pg" });
