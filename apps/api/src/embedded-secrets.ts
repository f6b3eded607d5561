import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * In embedded mode the operator token and the demo keys live in the data directory (mode 0600),
 * so that every start can print them again. A server deployment sets LEDGER_ADMIN_TOKEN instead.
 */
export async function readOrCreateSecret(dataDir: string, name: string, create: () => Promise<string> | string): Promise<string> {
  const path = join(dataDir, name);
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const value = await create();
  await mkdir(dataDir, { recursive: true });
  await writeFile(path, `${value}\n`, { mode: 0o600 });
  return value;
}

export function newOperatorToken(): string {
  return `op_${randomBytes(24).toString('base64url')}`;
}
