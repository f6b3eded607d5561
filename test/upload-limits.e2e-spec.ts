import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { type TestTenant, createAccount, createApiKey, setupTenant } from './support/ledger-fixtures';
import { bankCsv, createSource, statementDay } from './support/reconciliation-fixtures';

// A statement upload is authenticated (key and role) before a byte of its body is read, holds a slot of its
// key and of its address while it runs, and leaves nothing in the upload folder however it ends.

let api: ApiHarness;
let uploadDir: string;
let tenant: TestTenant;
let financeKeys: string[];

beforeAll(async () => {
  uploadDir = await mkdtemp(join(tmpdir(), 'ledger-uploads-'));
  api = await startApi({
    settings: { LEDGER_UPLOAD_DIR: uploadDir, LEDGER_UPLOADS_PER_KEY_MAX: '2', LEDGER_UPLOADS_PER_ADDRESS_MAX: '4' },
  });
  tenant = await setupTenant(api, 'uploads');
  financeKeys = [];
  for (let key = 0; key < 4; key++) financeKeys.push(await createApiKey(api, tenant.adminKey, ['finance']));
  await createAccount(api, tenant.adminKey, { code: 'assets:bank', currency: 'EUR', normalBalance: 'debit' });
  await createSource(api, financeKeys[0]!, { name: 'bank', account: 'assets:bank', format: 'csv:bank' });
});
afterAll(async () => {
  await api?.close();
  if (uploadDir) await rm(uploadDir, { recursive: true, force: true });
});

const BOUNDARY = 'ledger-test-boundary';
const PREAMBLE =
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="source"\r\n\r\nbank\r\n` +
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="s.csv"\r\nContent-Type: text/csv\r\n\r\n`;
const EPILOGUE = `\r\n--${BOUNDARY}--\r\n`;

interface OpenUpload {
  answer: Promise<{ status: number; body: any; retryAfter: string | undefined }>;
  /** Settles when the connection has closed (the server's doing, unless `abort` was called). */
  closed: Promise<void>;
  /** Sends the rest of the file and the end of the body. */
  finish(rest: string): void;
  abort(): void;
}

/** Starts an upload and sends its first `head` bytes of file; the body stays open until `finish`. */
function openUpload(key: string, head: string): OpenUpload {
  const outgoing = httpRequest(`${api.baseUrl}/v1/imports`, {
    method: 'POST',
    agent: false,
    headers: {
      authorization: `Bearer ${key}`,
      'idempotency-key': randomUUID(),
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      'transfer-encoding': 'chunked',
    },
  });
  const answer = new Promise<{ status: number; body: any; retryAfter: string | undefined }>((resolve, reject) => {
    outgoing.on('response', (incoming) => {
      let text = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => {
        text += chunk;
      });
      incoming.on('end', () =>
        resolve({
          status: incoming.statusCode!,
          body: text ? JSON.parse(text) : undefined,
          retryAfter: incoming.headers['retry-after'] as string | undefined,
        }),
      );
    });
    outgoing.on('error', reject);
  });
  answer.catch(() => undefined);
  const closed = new Promise<void>((resolve) => outgoing.on('close', () => resolve()));
  outgoing.on('error', () => undefined);
  outgoing.write(PREAMBLE + head);
  return {
    answer,
    closed,
    finish: (rest) => outgoing.end(rest + EPILOGUE),
    abort: () => outgoing.destroy(),
  };
}

const uploadsOnDisk = async () => (await readdir(uploadDir)).length;

/** Waits for the upload folder to hold `count` uploads: the server's side of an upload is visible only there. */
async function expectUploadsOnDisk(count: number): Promise<void> {
  await vi.waitFor(async () => expect(await uploadsOnDisk()).toBe(count), { timeout: 20_000, interval: 20 });
}

describe('statement uploads', () => {
  it('a well-formed but wrong key is 401 and a poster key 403, before the body ends; nothing is written', async () => {
    const wrongKey = `${financeKeys[0]!.slice(0, -4)}${financeKeys[0]!.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    for (const [key, status, code] of [
      [wrongKey, 401, 'UNAUTHENTICATED'],
      [tenant.posterKey, 403, 'FORBIDDEN'],
      [tenant.adminKey, 403, 'FORBIDDEN'],
    ] as const) {
      const upload = openUpload(key, 'x'.repeat(64 * 1024));
      // The body never ends: the answer can only come before it was read.
      const answer = await upload.answer;
      expect(answer.status).toBe(status);
      expect(answer.body.error.code).toBe(code);
      // The server closes the connection rather than read the rest of an unwanted body.
      await upload.closed;
      expect(await uploadsOnDisk()).toBe(0);
    }
  });

  it('two uploads per key and four per address at once; the next is 429 RATE_LIMITED with Retry-After', async () => {
    const head = 'date,value date,description,amount,currency,reference,counterparty\n';
    const first = [openUpload(financeKeys[0]!, head), openUpload(financeKeys[0]!, head)];
    await expectUploadsOnDisk(2);
    const thirdOfKey = await openUpload(financeKeys[0]!, head).answer;
    expect(thirdOfKey.status).toBe(429);
    expect(thirdOfKey.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { retryAfterSeconds: 5 } });
    expect(thirdOfKey.body.error.message).toMatch(/API key/);
    expect(thirdOfKey.retryAfter).toBe('5');

    const others = [openUpload(financeKeys[1]!, head), openUpload(financeKeys[2]!, head)];
    await expectUploadsOnDisk(4);
    const fifthOfAddress = await openUpload(financeKeys[3]!, head).answer;
    expect(fifthOfAddress.status).toBe(429);
    expect(fifthOfAddress.body.error.message).toMatch(/address/);
    expect(await uploadsOnDisk()).toBe(4);

    // An aborted upload's slot is freed and its partial file removed with its folder.
    first[0]!.abort();
    await expectUploadsOnDisk(3);
    const row = `${statementDay(0)},${statementDay(0)},coffee,-3.50,EUR,ref-1,cafe`;
    const after = openUpload(financeKeys[0]!, bankCsv([row]).split('\n')[0]!);
    after.finish(`\n${row}\n`);
    expect((await after.answer).status).toBe(201);

    for (const upload of [first[1]!, ...others]) upload.abort();
    await expectUploadsOnDisk(0);
  });

  it('a refused upload (too many parts) leaves nothing behind', async () => {
    const extraParts = Array.from(
      { length: 13 },
      (_, part) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="f${part}"\r\n\r\nx\r\n`,
    ).join('');
    const refused = openUpload(financeKeys[1]!, 'date\n');
    refused.finish(`\r\n${extraParts}`);
    expect((await refused.answer).status).toBe(400);
    await expectUploadsOnDisk(0);
  });
});
