import pg from 'pg';
import type { BenchConfig } from './bench-config';
import type { HttpClient } from './http-client';
import { forEachConcurrently } from './load-loop';
import { type JournalHead, chainLinks, journalCtes } from './sql-common';
import { CURRENCY, type Fixture, idempotencyKeyPrefix, sha256, uuidV7, walletCode } from './workloads';

export interface ApiFixture extends Fixture {
  posterKey: string;
}

interface CreatedTenant {
  tenant: { id: string; name: string };
  apiKey: string;
}

interface CreatedAccount {
  id: string;
}

/** The API's legs-per-transaction limit is 100: one funding source leg plus 99 wallets. */
const WALLETS_PER_API_FUNDING = 99;
/** The SQL fixture funds in chunks too: entries.leg is a smallint. */
const WALLETS_PER_SQL_FUNDING = 1_000;

export async function createTenant(http: HttpClient, operatorToken: string, name: string): Promise<CreatedTenant> {
  return http.expectJson<CreatedTenant>(
    { method: 'POST', path: '/v1/tenants', bearer: operatorToken, body: { name } },
    201,
  );
}

/**
 * The API mode's tenant, built through the API itself: a poster key, the wallets (credit-normal, never
 * negative), a funding source that may go negative, and the hot account. Setup is not measured.
 */
export async function setupApiFixture(
  http: HttpClient,
  config: BenchConfig,
  operatorToken: string,
): Promise<ApiFixture> {
  const { tenant, apiKey: adminKey } = await createTenant(http, operatorToken, 'bench-api');
  const keys = idempotencyKeyPrefix('setup');
  let sequence = 0;
  const post = <T>(path: string, bearer: string, body: unknown) =>
    http.expectJson<T>({ method: 'POST', path, bearer, idempotencyKey: `${keys}-${sequence++}`, body }, 201);
  const poster = await post<{ key: string }>('/v1/api-keys', adminKey, { name: 'bench poster', roles: ['poster'] });
  const account = (code: string, allowNegative: boolean) =>
    post<CreatedAccount>('/v1/accounts', adminKey, {
      code,
      currency: CURRENCY,
      normalBalance: 'credit',
      allowNegative,
    });
  const source = await account('equity:bench', true);
  const hot = await account('income:hot', false);
  const walletIds = new Array<string>(config.walletCount);
  const numbers = Array.from({ length: config.walletCount }, (_, index) => index + 1);
  await forEachConcurrently(numbers, config.setupConcurrency, async (number, index) => {
    walletIds[index] = (await account(walletCode(number), false)).id;
  });
  const chunks: string[][] = [];
  for (let start = 0; start < walletIds.length; start += WALLETS_PER_API_FUNDING)
    chunks.push(walletIds.slice(start, start + WALLETS_PER_API_FUNDING));
  const amount = config.walletFundingMinor.toString();
  // Every funding transaction debits the one source account, so they queue on it whatever the concurrency.
  await forEachConcurrently(chunks, config.setupConcurrency, async (chunk) => {
    const total = (config.walletFundingMinor * BigInt(chunk.length)).toString();
    await post('/v1/transactions', poster.key, {
      description: 'bench funding',
      entries: [
        { account: source.id, direction: 'debit', amount: total, currency: CURRENCY },
        ...chunk.map((id) => ({ account: id, direction: 'credit', amount, currency: CURRENCY })),
      ],
    });
  });
  return { tenantId: tenant.id, posterKey: poster.key, walletIds, hotAccountId: hot.id };
}

const INSERT_ACCOUNTS = `
INSERT INTO accounts (tenant_id, id, code, currency, normal_balance, allow_negative)
SELECT $1, a.id, a.code, $4, 'credit', a.allow_negative
  FROM unnest($2::uuid[], $3::text[], $5::bool[]) AS a(id, code, allow_negative)`;

const FUND_WALLETS = `
WITH header AS (
  INSERT INTO transactions (tenant_id, id, status, content_hash, description, effective_at, actor)
  VALUES ($1, $2, 'posted', $3, 'bench funding', now(), 'bench')
  RETURNING effective_at
), moved AS (
  UPDATE accounts a
     SET posted_debits = a.posted_debits + d.debit_minor, posted_credits = a.posted_credits + d.credit_minor,
         version = a.version + 1
    FROM unnest($4::uuid[], $5::int8[], $6::int8[]) AS d(account_id, debit_minor, credit_minor)
   WHERE a.tenant_id = $1 AND a.id = d.account_id
), ${journalCtes(13)}
INSERT INTO entries (tenant_id, transaction_id, leg, account_id, direction, amount_minor, currency,
                     account_version, posted_balance_after, effective_at)
SELECT $1, $2, e.leg, e.account_id, e.direction, e.amount_minor, $7, e.account_version, e.posted_balance_after,
       h.effective_at
  FROM header h, unnest($8::int2[], $4::uuid[], $9::text[], $10::int8[], $11::int8[], $12::int8[])
       AS e(leg, account_id, direction, amount_minor, account_version, posted_balance_after)`;

const JOURNAL_STRIPE_0 = `SELECT stripe, seq, hash FROM journal_heads WHERE tenant_id = $1 AND stripe = 0`;

/**
 * The SQL baseline's tenant: same shape of accounts, inserted set-based (setup is not measured). The
 * funding goes through transactions, entries and journal links like any posting, so the books stay
 * consistent. Nothing else writes to this tenant during setup, so it chains on stripe 0 unlocked.
 */
export async function setupSqlFixture(
  http: HttpClient,
  pool: pg.Pool,
  config: BenchConfig,
  operatorToken: string,
): Promise<Fixture> {
  const { tenant } = await createTenant(http, operatorToken, 'bench-sql');
  const sourceId = uuidV7();
  const hotAccountId = uuidV7();
  const walletIds = Array.from({ length: config.walletCount }, () => uuidV7());
  const ids = [sourceId, hotAccountId, ...walletIds];
  const codes = ['equity:bench', 'income:hot', ...walletIds.map((_, index) => walletCode(index + 1))];
  const allowNegative = ids.map((id) => id === sourceId);
  await pool.query(INSERT_ACCOUNTS, [tenant.id, ids, codes, CURRENCY, allowNegative]);
  const funding = config.walletFundingMinor;
  const stripe = (await pool.query<{ stripe: number; seq: string; hash: Buffer }>(JOURNAL_STRIPE_0, [tenant.id]))
    .rows[0];
  if (stripe === undefined) throw new Error(`tenant ${tenant.id} has no journal stripe 0`);
  let head: JournalHead = { stripe: stripe.stripe, seq: BigInt(stripe.seq), hash: stripe.hash };
  let sourceDebitsMinor = 0n;
  for (let start = 0, version = 1n; start < walletIds.length; start += WALLETS_PER_SQL_FUNDING, version++) {
    const chunk = walletIds.slice(start, start + WALLETS_PER_SQL_FUNDING);
    const totalMinor = funding * BigInt(chunk.length);
    sourceDebitsMinor += totalMinor;
    const accountIds = [sourceId, ...chunk];
    const transactionId = uuidV7();
    const contentHash = sha256(`funding ${start}`);
    const links = chainLinks(head, [{ transactionId, contentHash }]);
    await pool.query(FUND_WALLETS, [
      tenant.id,
      transactionId,
      contentHash,
      accountIds,
      [totalMinor, ...chunk.map(() => 0n)].map(String),
      [0n, ...chunk.map(() => funding)].map(String),
      CURRENCY,
      accountIds.map((_, leg) => leg),
      ['debit', ...chunk.map(() => 'credit')],
      [totalMinor, ...chunk.map(() => funding)].map(String),
      [version, ...chunk.map(() => 1n)].map(String),
      [-sourceDebitsMinor, ...chunk.map(() => funding)].map(String),
      ...links.params,
    ]);
    head = links.next;
  }
  return { tenantId: tenant.id, walletIds, hotAccountId };
}
