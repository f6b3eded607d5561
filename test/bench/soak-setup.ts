import { randomBytes, randomUUID } from 'node:crypto';
import { freePort } from '../support/free-port';
import { type AppProcess, startApp } from './app-process';
import { createTenant } from './bench-setup';
import { HttpClient } from './http-client';
import { forEachConcurrently } from './load-loop';
import type { SoakConfig } from './soak-config';

// The soak's world: the built API and worker as child processes on a fresh database, one tenant with
// a key per role, funded wallets in two currencies, a gateway clearing account and its statement source.

export const SOAK_CURRENCIES = ['USD', 'EUR'] as const;
export type SoakCurrency = (typeof SOAK_CURRENCIES)[number];
const WALLETS_PER_CURRENCY: Record<SoakCurrency, number> = { USD: 30, EUR: 10 };
/** Opening balance of every wallet: transfers of up to TRANSFER_AMOUNT_MAX_MINOR make some run dry. */
export const WALLET_FUNDING_MINOR = 50_000n;
export const GATEWAY_ACCOUNT = 'assets:gateway';
export const SALES_ACCOUNT = 'income:sales';
export const GATEWAY_SOURCE = 'gateway';

export interface SoakWorld {
  api: AppProcess;
  /** SOAK_WORKERS workers sharing the jobs. */
  workers: AppProcess[];
  http: HttpClient;
  tenantId: string;
  keys: { admin: string; poster: string; finance: string };
  /** Wallet codes per currency (credit-normal, never negative). */
  wallets: Record<SoakCurrency, string[]>;
  /** When the funding was posted: an asOf before it reads zero, after it the funding. */
  fundedAt: string;
}

async function post<T>(http: HttpClient, path: string, bearer: string, body: unknown): Promise<T> {
  return http.expectJson<T>({ method: 'POST', path, bearer, idempotencyKey: randomUUID(), body }, 201);
}

async function createAccounts(
  http: HttpClient,
  adminKey: string,
  wallets: Record<SoakCurrency, string[]>,
): Promise<void> {
  const account = (code: string, currency: string, normalBalance: 'debit' | 'credit', allowNegative: boolean) =>
    post(http, '/v1/accounts', adminKey, { code, currency, normalBalance, allowNegative });
  for (const currency of SOAK_CURRENCIES)
    await account(`equity:funding:${currency.toLowerCase()}`, currency, 'credit', true);
  await account(GATEWAY_ACCOUNT, 'USD', 'debit', true);
  await account(SALES_ACCOUNT, 'USD', 'credit', true);
  const codes = SOAK_CURRENCIES.flatMap((currency) => wallets[currency].map((code) => ({ code, currency })));
  await forEachConcurrently(
    codes,
    8,
    async ({ code, currency }) => void (await account(code, currency, 'credit', false)),
  );
}

async function fundWallets(
  http: HttpClient,
  posterKey: string,
  wallets: Record<SoakCurrency, string[]>,
): Promise<void> {
  const amount = WALLET_FUNDING_MINOR.toString();
  for (const currency of SOAK_CURRENCIES) {
    const codes = wallets[currency];
    await post(http, '/v1/transactions', posterKey, {
      description: 'soak funding',
      entries: [
        {
          account: `equity:funding:${currency.toLowerCase()}`,
          direction: 'debit',
          amount: (WALLET_FUNDING_MINOR * BigInt(codes.length)).toString(),
          currency,
        },
        ...codes.map((code) => ({ account: code, direction: 'credit', amount, currency })),
      ],
    });
  }
}

export async function startSoakWorld(config: SoakConfig, databaseUrl: string): Promise<SoakWorld> {
  const adminToken = `soak-operator-${randomBytes(12).toString('hex')}`;
  const common = { databaseUrl, adminToken, nodeArgs: [] };
  const api = await startApp({
    ...common,
    app: 'api',
    port: await freePort(),
    poolSize: config.apiPoolSize,
    settings: { API_PROCESSES: String(config.apiProcesses) },
  });
  const workers: AppProcess[] = [];
  try {
    for (let index = 0; index < config.workers; index++)
      workers.push(
        await startApp({
          ...common,
          app: 'worker',
          port: 0,
          poolSize: 4,
          settings: { RECONCILE_CRON: config.reconcileCron },
        }),
      );
    const http = new HttpClient(api.baseUrl, config.clients + 2);
    const { tenant, apiKey: admin } = await createTenant(http, adminToken, 'soak');
    const key = async (role: string) =>
      (await post<{ key: string }>(http, '/v1/api-keys', admin, { name: `soak ${role}`, roles: [role] })).key;
    const keys = { admin, poster: await key('poster'), finance: await key('finance') };
    const wallets = Object.fromEntries(
      SOAK_CURRENCIES.map((currency) => [
        currency,
        Array.from(
          { length: WALLETS_PER_CURRENCY[currency] },
          (_, index) => `wallet:${currency.toLowerCase()}:${String(index + 1).padStart(3, '0')}`,
        ),
      ]),
    ) as Record<SoakCurrency, string[]>;
    await createAccounts(http, admin, wallets);
    await post(http, '/v1/sources', keys.finance, {
      name: GATEWAY_SOURCE,
      account: GATEWAY_ACCOUNT,
      format: 'csv:gateway',
    });
    await fundWallets(http, keys.poster, wallets);
    return { api, workers, http, tenantId: tenant.id, keys, wallets, fundedAt: new Date().toISOString() };
  } catch (error) {
    await Promise.all(workers.map((worker) => worker.process.stop()));
    await api.process.stop();
    throw error;
  }
}

export async function stopSoakWorld(world: SoakWorld): Promise<void> {
  world.http.close();
  await stopWorkers(world);
  await world.api.process.stop();
}

export async function stopWorkers(world: SoakWorld): Promise<void> {
  await Promise.all(world.workers.map((worker) => worker.process.stop()));
}
