import { type TestDatabase, createTestDatabase } from '@ledger/db';
import { newId } from '@ledger/ids';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerFixture } from '../test/ledger-fixture';
import { type SqlStatement, cashAndSalesTenant, sqlRefusal } from '../test/sql-laws';

// The references of the tables every posting writes are checked once per statement by triggers (the
// migration statement_level_references), not by declared foreign keys. Each law is tried here with
// statements that bypass the application: refused as a foreign key refuses (23503, the key's name),
// the whole statement with it, and the referenced rows can never go away or change their key.
describe('references of the posting tables in PostgreSQL', () => {
  let test: TestDatabase;
  let tenantId: string;
  let otherTenantId: string;
  let cashId: string;
  let salesId: string;
  let otherTenantAccountId: string;
  let postedId: string;

  beforeAll(async () => {
    test = await createTestDatabase(4);
    const ledger = await ledgerFixture(test.database);
    ({ tenantId, cashId, salesId, postedId } = await cashAndSalesTenant(ledger));
    otherTenantId = await ledger.tenant();
    otherTenantAccountId = (
      await ledger.account(otherTenantId, { code: 'assets:cash', currency: 'USD', normalBalance: 'debit' })
    ).id;
    await ledger.close();
  });
  afterAll(async () => {
    await test.drop();
  });

  const refusal = (...statements: SqlStatement[]) => sqlRefusal(test.database, statements);

  const transactionSql = (columns = '', values = '') => `
    INSERT INTO transactions (tenant_id, id, status, content_hash, effective_at, actor${columns})
    VALUES ($1, $2, 'posted', sha256(''), now(), 'test'${values})`;
  const entriesSql = `
    INSERT INTO entries (tenant_id, transaction_id, leg, account_id, direction, amount_minor, currency,
                         account_version, posted_balance_after, effective_at)
    VALUES ($1, $2, 0, $3, 'debit', 100, 'USD', 1000, 0, now()),
           ($1, $2, 1, $4, 'credit', 100, 'USD', 1000, 0, now())`;
  const linkSql = `
    INSERT INTO journal_links (tenant_id, stripe, seq, transaction_id, encoding_version, previous_hash, hash)
    VALUES ($1, $2, 1000000, $3, 1, sha256(''), sha256(''))`;

  it('refuses a transaction of an unknown tenant', async () => {
    expect(await refusal([transactionSql(), [newId(), newId()]])).toEqual({
      code: '23503',
      constraint: 'transactions_tenant_id_fkey',
    });
  });

  it('refuses a hold resolution or a reversal naming a transaction that does not exist in its tenant', async () => {
    for (const [column, constraint] of [
      ['hold_id', 'transactions_hold_fk'],
      ['reverses_id', 'transactions_reverses_fk'],
    ] as const) {
      expect(await refusal([transactionSql(`, ${column}`, ', $3'), [tenantId, newId(), newId()]])).toEqual({
        code: '23503',
        constraint,
      });
      // The same id in another tenant is another transaction.
      expect(await refusal([transactionSql(`, ${column}`, ', $3'), [otherTenantId, newId(), postedId]])).toEqual({
        code: '23503',
        constraint,
      });
    }
  });

  it('refuses entries of a transaction that does not exist', async () => {
    expect(await refusal([entriesSql, [tenantId, newId(), cashId, salesId]])).toEqual({
      code: '23503',
      constraint: 'entries_tenant_id_transaction_id_fkey',
    });
  });

  it('refuses an entry in another tenant or currency than its account, among any number of right ones', async () => {
    const id = newId();
    expect(
      await refusal([transactionSql(), [tenantId, id]], [entriesSql, [tenantId, id, cashId, otherTenantAccountId]]),
    ).toEqual({ code: '23503', constraint: 'entries_tenant_id_account_id_currency_fkey' });
    const legs = Array.from({ length: 50 }, (_, leg) => leg);
    const currency = (leg: number) => (leg === 37 ? 'EUR' : 'USD');
    const manyLegs = `
      INSERT INTO entries (tenant_id, transaction_id, leg, account_id, direction, amount_minor, currency,
                           account_version, posted_balance_after, effective_at)
      SELECT $1, $2, leg, CASE WHEN leg % 2 = 0 THEN $3::uuid ELSE $4::uuid END,
             CASE WHEN leg % 2 = 0 THEN 'debit' ELSE 'credit' END, 100, currency, 1000 + leg, 0, now()
        FROM unnest($5::int2[], $6::text[]) AS l(leg, currency)`;
    const otherId = newId();
    expect(
      await refusal(
        [transactionSql(), [tenantId, otherId]],
        [manyLegs, [tenantId, otherId, cashId, salesId, legs, legs.map(currency)]],
      ),
    ).toEqual({ code: '23503', constraint: 'entries_tenant_id_account_id_currency_fkey' });
    const written = await test.database.sql.query<{ n: bigint }>(
      'SELECT count(*)::int8 AS n FROM transactions WHERE id = ANY($1::uuid[])',
      [[id, otherId]],
    );
    expect(written[0]!.n).toBe(0n);
  });

  it('refuses a journal link to a transaction or a stripe that does not exist in its tenant', async () => {
    expect(await refusal([linkSql, [tenantId, 0, newId()]])).toEqual({
      code: '23503',
      constraint: 'journal_links_tenant_id_transaction_id_fkey',
    });
    expect(await refusal([linkSql, [otherTenantId, 0, postedId]])).toEqual({
      code: '23503',
      constraint: 'journal_links_tenant_id_transaction_id_fkey',
    });
    const id = newId();
    expect(
      await refusal(
        [transactionSql(), [tenantId, id]],
        [entriesSql, [tenantId, id, cashId, salesId]],
        [linkSql, [tenantId, 999, id]],
      ),
    ).toEqual({ code: '23503', constraint: 'journal_links_tenant_id_stripe_fkey' });
  });

  it('refuses an outbox event of an unknown tenant', async () => {
    const event = `
      INSERT INTO outbox_events (tenant_id, id, type, aggregate_type, aggregate_id, aggregate_version, data)
      VALUES ($1, $2, 'transaction.posted', 'transaction', $2, 1, '{}')`;
    expect(await refusal([event, [newId(), newId()]])).toEqual({
      code: '23503',
      constraint: 'outbox_events_tenant_id_fkey',
    });
  });

  it('refuses an Idempotency-Key of an unknown tenant, and a key or an event moved to one', async () => {
    const key = `
      INSERT INTO idempotency_keys (tenant_id, key, fingerprint, state, response_status, response_body, expires_at)
      VALUES ($1, $2, sha256(''), 'completed', 201, '{}', now() + interval '1 day')`;
    const refusedKey = { code: '23503', constraint: 'idempotency_keys_tenant_id_fkey' };
    expect(await refusal([key, [tenantId, 'known-1']], [key, [newId(), 'unknown']])).toEqual(refusedKey);
    const event = `
      INSERT INTO outbox_events (tenant_id, id, type, aggregate_type, aggregate_id, aggregate_version, data)
      VALUES ($1, $2, 'transaction.posted', 'transaction', $2, 1, '{}')`;
    await test.database.sql.query(key, [tenantId, 'moved-later']);
    const eventId = newId();
    await test.database.sql.query(event, [tenantId, eventId]);
    expect(await refusal(["UPDATE idempotency_keys SET tenant_id = $1 WHERE key = 'moved-later'", [newId()]])).toEqual(
      refusedKey,
    );
    expect(await refusal(['UPDATE outbox_events SET tenant_id = $2 WHERE id = $1', [eventId, newId()]])).toEqual({
      code: '23503',
      constraint: 'outbox_events_tenant_id_fkey',
    });
    // To a tenant that exists, as a foreign key would let it; and what is not the tenant may change.
    expect(
      await refusal(["UPDATE idempotency_keys SET tenant_id = $1 WHERE key = 'moved-later'", [otherTenantId]]),
    ).toBe(undefined);
    expect(await refusal(['UPDATE outbox_events SET published_at = now() WHERE id = $1', [eventId]])).toBe(undefined);
  });

  it('never lets a referenced tenant, account or journal stripe go away or change its key', async () => {
    const refused = { code: '23503', constraint: undefined };
    const neverUsedTenant = newId();
    await test.database.sql.query('INSERT INTO tenants (id, name) VALUES ($1, $2)', [neverUsedTenant, 'unused']);
    for (const statement of [
      ['DELETE FROM tenants WHERE id = $1', [tenantId]],
      ['DELETE FROM tenants WHERE id = $1', [neverUsedTenant]],
      ['UPDATE tenants SET id = $2 WHERE id = $1', [tenantId, newId()]],
      ['TRUNCATE tenants CASCADE', []],
      ['DELETE FROM accounts WHERE id = $1', [cashId]],
      ["UPDATE accounts SET currency = 'EUR' WHERE id = $1", [cashId]],
      // To a tenant without accounts: no unique key can refuse the move before the key's own check.
      ['UPDATE accounts SET tenant_id = $2 WHERE id = $1', [cashId, neverUsedTenant]],
      ['TRUNCATE accounts CASCADE', []],
      ['DELETE FROM journal_heads WHERE tenant_id = $1', [tenantId]],
      ['UPDATE journal_heads SET stripe = stripe + 100 WHERE tenant_id = $1', [tenantId]],
      ['TRUNCATE journal_heads', []],
    ] as SqlStatement[]) {
      expect(await refusal(statement), statement[0]).toEqual(refused);
    }
    // What is not a key may change, and a key may be set to what it already is.
    expect(await refusal(["UPDATE accounts SET name = 'Cash', currency = currency WHERE id = $1", [cashId]])).toBe(
      undefined,
    );
    expect(await refusal(["UPDATE tenants SET name = 'renamed' WHERE id = $1", [tenantId]])).toBe(undefined);
    const counts = await test.database.sql.query<{ accounts: bigint; heads: bigint }>(
      `SELECT (SELECT count(*) FROM accounts WHERE tenant_id = $1)::int8 AS accounts,
              (SELECT count(*) FROM journal_heads WHERE tenant_id = $1)::int8 AS heads`,
      [tenantId],
    );
    expect(counts[0]).toEqual({ accounts: 2n, heads: 16n });
  });
});
