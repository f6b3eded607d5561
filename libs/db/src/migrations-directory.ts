import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** prisma/migrations of this package, found from here whether running from source or from dist/. */
export function migrationsDirectory(): string {
  for (let directory = __dirname; directory !== dirname(directory); directory = dirname(directory)) {
    const candidate = join(directory, 'prisma', 'migrations');
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`prisma/migrations not found above ${__dirname}`);
}
