import { createHmac, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '@ledger/db';
import { BUILT, BuiltProcess, READY_LINE } from './support/built-process';
import { freePort } from './support/free-port';
import { WebhookReceiver } from './support/webhook-receiver';
import { type Answer, requestJson } from './support/http-json';

// Secrets never reach the logs. The built API runs (with its worker jobs in-process, at the most
// verbose log level) with a password in DATABASE_URL and in NATS_URL (a broker that is not there, so
// the relay keeps failing and logging), an operator token and a proof signing key. Then the secrets a
// tenant makes are used and misused: keys, wrong keys, a webhook and its rotated secret, an inbound
// source and a message signed with the wrong secret. Everything the process printed is then
// searched for every secret.

const secret = (prefix: string) => `${prefix}${randomBytes(18).toString('hex')}`;
const DATABASE_PASSWORD = secret('dbpass');
const NATS_PASSWORD = secret('natspass');
const OPERATOR_TOKEN = secret('operator');
const SIGNING_KEY = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
/** The base64 body of the PEM, which is what would show if the key were printed in any form. */
const SIGNING_KEY_BODY = SIGNING_KEY.split('\n')
  .filter((line) => line !== '' && !line.startsWith('-----'))
  .join('');

let database: TestDatabase;
let api: BuiltProcess;
let baseUrl: string;
const receiver = new WebhookReceiver(() => 204);
/** Every secret handed out or sent during the test, to be searched for in the output. */
const secrets: string[] = [DATABASE_PASSWORD, NATS_PASSWORD, OPERATOR_TOKEN, SIGNING_KEY_BODY];
/** The relay's warning after a failed attempt (libs/outbox polling-loop.ts). */
const RELAY_FAILURE = /failed \(\d+ in a row/;

function call(
  method: string,
  path: string,
  options: { key?: string; body?: unknown; idempotencyKey?: string } = {},
): Promise<Answer> {
  return requestJson(baseUrl, method, path, options);
}

async function created(answer: Promise<Answer>): Promise<any> {
  const { status, body } = await answer;
  expect(status, JSON.stringify(body)).toBe(201);
  return body;
}

beforeAll(async () => {
  database = await createTestDatabase(2);
  const url = new URL(database.url);
  // Trust authentication ignores the password, so the API connects with it like any other.
  url.password = DATABASE_PASSWORD;
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  api = BuiltProcess.spawn('api', BUILT.api, {
    env: {
      DATABASE_URL: url.toString(),
      PORT: String(port),
      LEDGER_ADMIN_TOKEN: OPERATOR_TOKEN,
      LEDGER_SIGNING_KEY: SIGNING_KEY,
      NATS_URL: `nats://ledger:${NATS_PASSWORD}@127.0.0.1:${await freePort()}`,
      LEDGER_WORKER_IN_PROCESS: 'true',
      LEDGER_DEMO_DATA: 'false',
      LEDGER_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      LEDGER_WEBHOOK_BACKOFF_BASE_MS: '50',
      LEDGER_WEBHOOK_BACKOFF_CAP_MS: '200',
      LOG_LEVEL: 'verbose',
      RATE_LIMIT_PER_SECOND: '0',
    },
  });
  await api.waitUntilReady(READY_LINE.api);
});

afterAll(async () => {
  await api?.stop();
  await receiver.stop();
  await database?.drop();
});

describe('secrets in the logs', () => {
  it('none of the secrets made, used or misused appears in anything the API printed', async () => {
    const tenant = await created(
      call('POST', '/v1/tenants', { key: OPERATOR_TOKEN, body: { name: 'secrets' }, idempotencyKey: randomUUID() }),
    );
    const adminKey: string = tenant.apiKey;
    const poster = await created(
      call('POST', '/v1/api-keys', {
        key: adminKey,
        body: { name: 'poster', roles: ['poster'] },
        idempotencyKey: randomUUID(),
      }),
    );
    secrets.push(adminKey, poster.key);

    // Wrong credentials, close to right ones: refused, and not echoed anywhere.
    // The admin key with its last character changed (to 'x', or 'y' when it already ends in 'x').
    const changedLast = adminKey.endsWith('x') ? 'y' : 'x';
    const nearMisses = [`${adminKey.slice(0, -1)}${changedLast}`, `${OPERATOR_TOKEN}x`, secret('ldg_')];
    secrets.push(...nearMisses);
    for (const key of nearMisses) expect((await call('GET', '/v1/accounts', { key })).status).toBe(401);
    expect(
      (await call('POST', '/v1/tenants', { key: nearMisses[1], body: { name: 'no' }, idempotencyKey: randomUUID() }))
        .status,
    ).toBe(401);

    for (const code of ['assets:cash', 'income:sales']) {
      await created(
        call('POST', '/v1/accounts', {
          key: adminKey,
          body: { code, currency: 'EUR', normalBalance: code.startsWith('assets') ? 'debit' : 'credit' },
          idempotencyKey: randomUUID(),
        }),
      );
    }
    const webhook = await created(
      call('POST', '/v1/webhooks', {
        key: adminKey,
        body: { url: await receiver.start(), events: [] },
        idempotencyKey: randomUUID(),
      }),
    );
    const rotated = await created(
      call('POST', `/v1/webhooks/${webhook.id}/rotate-secret`, {
        key: adminKey,
        body: {},
        idempotencyKey: randomUUID(),
      }),
    );
    secrets.push(webhook.secret, rotated.secret);

    const inbound = await created(
      call('POST', '/v1/inbound-sources', {
        key: adminKey,
        body: {
          name: 'psp',
          mappings: {
            'payment.succeeded': {
              description: 'card payment',
              externalRef: '$.data.payment',
              entries: [
                { account: 'assets:cash', direction: 'debit', amount: '$.data.amount', currency: 'EUR' },
                { account: 'income:sales', direction: 'credit', amount: '$.data.amount', currency: 'EUR' },
              ],
            },
          },
        },
        idempotencyKey: randomUUID(),
      }),
    );
    secrets.push(inbound.secret);
    const message = JSON.stringify({
      id: randomUUID(),
      type: 'payment.succeeded',
      data: { payment: 'pay_1', amount: '1200' },
    });
    const timestamp = Math.floor(Date.now() / 1000);
    const wrongSecret = secret('whsec_');
    secrets.push(wrongSecret);
    for (const signingSecret of [inbound.secret, wrongSecret]) {
      const hmac = createHmac('sha256', signingSecret).update(`${timestamp}.${message}`).digest('hex');
      const signature = `t=${timestamp},v1=${hmac}`;
      await fetch(`${baseUrl}${inbound.endpoint}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'ledger-signature': signature },
        body: message,
      });
    }

    for (let index = 0; index < 5; index++) {
      await created(
        call('POST', '/v1/transactions', {
          key: poster.key,
          body: {
            entries: [
              { account: 'assets:cash', direction: 'debit', amount: '100', currency: 'EUR' },
              { account: 'income:sales', direction: 'credit', amount: '100', currency: 'EUR' },
            ],
          },
          idempotencyKey: randomUUID(),
        }),
      );
    }
    // The relay fails against the absent broker (the webhook's deliveries wait for it) and logs why.
    for (let attempt = 0; attempt < 100 && !RELAY_FAILURE.test(api.printed); attempt++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(api.printed).toMatch(RELAY_FAILURE);
    await api.stop();

    const printed = api.printed;
    expect(printed).toContain(READY_LINE.api);
    const leaked = secrets.filter((value) => printed.includes(value));
    expect(leaked, `secrets in the output:\n${printed}`).toEqual([]);
  });
});
