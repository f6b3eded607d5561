import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppConfig } from './config';

/**
 * In embedded mode the operator token and the demo keys live in the data directory (mode 0600),
 * so that every start can print them again. A server deployment sets LEDGER_ADMIN_TOKEN instead.
 */
export async function readOrCreateSecret(
  dataDir: string,
  name: string,
  create: () => Promise<string> | string,
): Promise<string> {
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

/** A new Ed25519 private key (PKCS#8 PEM) to sign balance proofs with. */
export function newSigningKey(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString().trim();
}

/**
 * LEDGER_SIGNING_KEY when set; in embedded mode a key generated once into the data directory
 * (proof-signing-key.pem, mode 0600); otherwise none, and proofs answer 503 until one is configured.
 */
export async function signingKey(config: AppConfig): Promise<string | undefined> {
  if (config.signingKey !== undefined || config.databaseUrl !== undefined) return config.signingKey;
  return readOrCreateSecret(config.dataDir, 'proof-signing-key.pem', newSigningKey);
}
