import { defineConfig } from 'prisma/config';

// The runtime applies migrations itself (src/database/migrator.ts), so this file only
// serves the Prisma CLI: `prisma generate` offline, and the normal workflow for those
// who have Prisma's engines (`prisma migrate dev` needs DATABASE_URL).
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/pipes_gateway' },
});
