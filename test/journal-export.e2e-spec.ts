import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decimalToMinor } from '@ledger/money';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { type AuditedLedger, seedAuditedLedger } from './support/audit-fixtures';
import { mustConvert } from './support/conversion-fixtures';
import { ensureHledger, hledger } from './support/hledger';
import { createAccount, expectError, getAccount, isoFromNow } from './support/ledger-fixtures';
import {
  bankCsv,
  createSource,
  financeKey,
  listTickets,
  runReconciliation,
  uploadStatement,
} from './support/reconciliation-fixtures';

/** `hledger balance -O csv` rows: account -> amount in minor units (debits positive); hledger writes a zero as "0". */
function parseBalances(csv: string): Map<string, { amountMinor: bigint; currency: string | null }> {
  const balances = new Map<string, { amountMinor: bigint; currency: string | null }>();
  for (const line of csv.trim().split(/\r?\n/).slice(1)) {
    const [, account, amount, currency] = /^"([^"]+)","(?:0|(-?[0-9.]+) ([A-Z]{3}))"$/.exec(line) ?? [];
    if (account === undefined) throw new Error(`unexpected hledger balance line: ${line}`);
    balances.set(
      account,
      amount === undefined
        ? { amountMinor: 0n, currency: null }
        : { amountMinor: decimalToMinor(amount, currency!), currency: currency! },
    );
  }
  return balances;
}

describe('journal export', () => {
  let api: ApiHarness;
  let ledger: AuditedLedger;
  let dir: string;

  beforeAll(async () => {
    await ensureHledger();
    api = await startApi();
    ledger = await seedAuditedLedger(api);
    // A conversion through the API (priced in the export), beside the seed's hand-made FX transaction (not).
    await createAccount(api, ledger.tenant.adminKey, {
      code: 'liabilities:wallets:bob:eur',
      currency: 'EUR',
      normalBalance: 'credit',
    });
    await mustConvert(api, ledger.tenant.posterKey, {
      from: { account: 'liabilities:wallets:bob', amount: '1000', currency: 'USD' },
      to: { account: 'liabilities:wallets:bob:eur', currency: 'EUR' },
      rate: '0.92345',
      rounding: 'half-up',
    });
    ledger.codes.push('liabilities:wallets:bob:eur', 'fx:position:EUR', 'fx:position:USD');
    dir = await mkdtemp(join(tmpdir(), 'ledger-export-'));
  }, 300_000);
  afterAll(async () => {
    await api?.close();
  });

  async function exportJournal(query: string): Promise<{ text: string; type: string | null }> {
    const response = await api.request('GET', `/v1/exports/journal${query}`, { key: ledger.auditorKey });
    expect(response.status, String(response.body).slice(0, 500)).toBe(200);
    return { text: response.body as string, type: response.headers.get('content-type') };
  }

  it('passes hledger --strict, each closing balance asserted; hledger balance = the API, every account', async () => {
    const { text, type } = await exportJournal('?format=hledger');
    expect(type).toMatch(/^text\/plain/);
    const file = join(dir, 'ledger.journal');
    await writeFile(file, text);
    const csv = await hledger(['-f', file, '--strict', 'balance', '--flat', '--empty', '--no-total', '-O', 'csv']);
    const balances = parseBalances(csv);
    expect([...balances.keys()].sort()).toEqual([...ledger.codes].sort());
    for (const code of ledger.codes) {
      const account = await getAccount(api, ledger.auditorKey, code);
      const debitsMinusCredits = BigInt(account.balances.posted) * (account.normalBalance === 'debit' ? 1n : -1n);
      expect(balances.get(code), code).toEqual({
        amountMinor: debitsMinusCredits,
        currency: debitsMinusCredits === 0n ? null : account.currency,
      });
    }
    expect(text).toMatch(/closing balances/);
    expect(text).toContain('liabilities:wallets:alice:eur  0 EUR = -91.50 EUR');
    expect(text).toContain('assets:bank:bhd  1.234 BHD');
    // The conversion is a priced one to hledger: 10.00 USD at a total cost of the 9.23 EUR posted.
    expect(text).toContain('    ; conversion USD to EUR at 0.92345, rounded half-up, remainder 0.45 minor units\n');
    expect(text).toContain('    liabilities:wallets:bob  10.00 USD @@ 9.23 EUR\n');
    expect(text).toContain('    fx:position:USD  -10.00 USD @@ 9.23 EUR\n');
    expect(text).toContain('    fx:position:EUR  9.23 EUR\n    liabilities:wallets:bob:eur  -9.23 EUR\n');
    expect(text).not.toMatch(/equity:fx:usd {2}-100\.00 USD @@/);
    expect(text).toContain('fx:position:USD  0 USD = -10.00 USD');
    const prices = await hledger(['-f', file, '--strict', 'prices', '--costs']);
    expect(prices).toMatch(/^P \d{4}-\d\d-\d\d USD 0\.9230* EUR$/m);
    // At cost, the customer's dollars are the euros they bought.
    const atCost = await hledger(['-f', file, '--strict', 'balance', '--cost', '--flat', '-O', 'csv', 'fx:position']);
    expect(atCost).toContain('"fx:position:USD","-9.23 EUR"');
  });

  it('hledger refuses the file when a closing balance assertion is off by one minor unit', async () => {
    const { text } = await exportJournal('');
    const file = join(dir, 'tampered.journal');
    const broken = text.replace(
      /(liabilities:wallets:bob {2}0 USD = -)(\d+)\.(\d\d)/,
      (_all, prefix: string, units: string, cents: string) =>
        `${prefix}${units}.${(Number(cents) + 1).toString().padStart(2, '0')}`,
    );
    expect(broken).not.toBe(text);
    await writeFile(file, broken);
    await expect(hledger(['-f', file, '--strict', 'balance'])).rejects.toThrow(/balance assertion/i);
  });

  it('writes CSV with one row per entry, every currency of every transaction summing to zero', async () => {
    const { text, type } = await exportJournal('?format=csv');
    expect(type).toMatch(/^text\/csv/);
    const [header, ...rows] = text.trim().split('\r\n');
    expect(header).toBe(
      'transaction_id,journal_stripe,journal_seq,journal_hash,status,effective_at,hold_id,reverses_id,external_ref,' +
        'description,leg,account,direction,pending,amount,currency,amount_minor',
    );
    const net = new Map<string, bigint>();
    for (const row of rows) {
      const fields = row.match(/("([^"]|"")*"|[^,]*)(,|$)/g)!.map((field) => field.replace(/,$/, ''));
      const [transactionId, , , , , , , , , , , , direction, pending, , currency, amountMinor] = fields;
      if (pending === 'true') continue;
      const key = `${transactionId}/${currency}`;
      net.set(key, (net.get(key) ?? 0n) + (direction === 'debit' ? 1n : -1n) * BigInt(amountMinor!));
    }
    expect(net.size).toBeGreaterThan(10);
    for (const [key, sum] of net) expect(sum, key).toBe(0n);
    expect(text).toContain(',(payment) alice pays bob; fee 0.50,');
    expect(text).toContain(',1.234,BHD,1234\r\n');
  });

  it('exports discrepancy tickets and reconciliation runs as CSV for the audit file', async () => {
    const finance = await financeKey(api, ledger.tenant);
    await createSource(api, finance, { name: 'bank-usd', account: 'assets:bank:usd', format: 'csv:bank' });
    const yesterday = isoFromNow(-24 * 3600 * 1000).slice(0, 10);
    await uploadStatement(
      api,
      finance,
      'bank-usd',
      'bank.csv',
      bankCsv([`${yesterday},${yesterday},"UNKNOWN, INC.",12.34,USD,ref-x,Nobody`]),
    );
    const run = await runReconciliation(api, finance);
    const tickets = await listTickets(api, finance);
    expect(tickets.length).toBeGreaterThan(0);

    const ticketCsv = await api.request('GET', '/v1/exports/discrepancies', { key: ledger.auditorKey });
    expect(ticketCsv.status).toBe(200);
    expect(ticketCsv.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, ...rows] = (ticketCsv.body as string).trim().split('\r\n');
    expect(header).toBe(
      'id,kind,severity,status,owner,summary,amount,currency,amount_minor,account,source,opened_at,updated_at,due_at,' +
        'overdue,resolved_at,last_seen_run_id,fingerprint,evidence',
    );
    expect(rows.map((row) => row.split(',')[0])).toEqual(tickets.map((ticket) => ticket.id));
    const withAmount = tickets.find((ticket) => ticket.amount === '1234')!;
    expect(rows.find((row) => row.startsWith(withAmount.id))).toContain(',12.34,USD,1234,');

    const runCsv = await api.request('GET', '/v1/exports/reconciliation-runs', { key: ledger.auditorKey });
    expect(runCsv.status).toBe(200);
    const runRows = (runCsv.body as string).trim().split('\r\n');
    expect(runRows[0]).toBe('id,trigger,status,started_at,finished_at,duration_ms,error,stats');
    expect(runRows[1]).toMatch(new RegExp(`^${run.id},api,completed,`));
    expectError(await api.request('GET', '/v1/exports/discrepancies', { key: finance }), 403, 'FORBIDDEN');
  });

  it('is for auditors and admins, and validates its query', async () => {
    expectError(await api.request('GET', '/v1/exports/journal', { key: ledger.tenant.posterKey }), 403, 'FORBIDDEN');
    expectError(
      await api.request('GET', '/v1/exports/journal?format=xlsx', { key: ledger.auditorKey }),
      400,
      'VALIDATION_FAILED',
    );
  });
});
