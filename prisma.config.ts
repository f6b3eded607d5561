// Prisma CLI configuration. Only `prisma generate` runs here; migrations are applied by the
// project's own runner (libs/db), which records them in _prisma_migrations as Prisma does.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
