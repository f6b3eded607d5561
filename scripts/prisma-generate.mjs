// Runs `prisma generate` without the schema-engine download that generate does not need:
// PRISMA_SCHEMA_ENGINE_BINARY only has to name an existing executable.
import { execFileSync } from 'node:child_process';

const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
env.PRISMA_HIDE_UPDATE_MESSAGE = '1';
execFileSync(process.execPath, ['node_modules/prisma/build/index.js', 'generate'], { env, stdio: 'inherit' });
