import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithStatementSamples } from '../libs/imports/test/statement-samples';
import { type ApiHarness, startApi } from './support/api-harness';
import {
  type TestTenant,
  createAccount,
  isoFromNow,
  mustPost,
  seededTenant,
  sqlRows,
  transfer,
} from './support/ledger-fixtures';
import {
  bankCsv,
  createSource,
  financeKey,
  listTickets,
  routeOwner,
  runReconciliation,
  statementDay,
  uploadSample,
  uploadStatement,
} from './support/reconciliation-fixtures';

// The finance team's month: real bank statements (camt.053 samples) and a gateway export with two
// payouts, against a ledger seeded to match them, with deliberate breaks: a deposit missing from the
// ledger, a fee off by one minor unit, a duplicated bank line, a stale hold. One run opens exactly
// the expected tickets for the expected owners; a second opens none; fixing each cause resolves it.

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

const day = statementDay;
const major = (minor: bigint) => {
  const magnitude = minor < 0n ? -minor : minor;
  return `${minor < 0n ? '-' : ''}${magnitude / 100n}.${String(magnitude % 100n).padStart(2, '0')}`;
};

interface Charge {
  gross: bigint;
  fee: bigint;
}

/** A gateway payout: its charges (card fee 2.9% + 0.30) and the totals the ledger books. */
function payout(charges: number, seed: number) {
  const list: Charge[] = Array.from({ length: charges }, (_, index) => {
    const gross = BigInt(1000 + ((index * 37 + seed * 101) % 9000));
    return { gross, fee: (gross * 29n + 500n) / 1000n + 30n };
  });
  const gross = list.reduce((sum, charge) => sum + charge.gross, 0n);
  const fee = list.reduce((sum, charge) => sum + charge.fee, 0n);
  return { charges: list, gross, fee, net: gross - fee };
}

/** The gateway's balance-transaction export: each charge (gross, fee, net) in a payout, then the payout. */
function gatewayCsv(payouts: Record<string, ReturnType<typeof payout>>): string {
  const rows = ['id,created,available_on,currency,gross,fee,net,reporting_category,source_id,payout_id,description'];
  for (const [payoutId, { charges, net }] of Object.entries(payouts)) {
    charges.forEach((charge, index) => {
      const id = `${payoutId}_${String(index).padStart(3, '0')}`;
      const amounts = `${major(charge.gross)},${major(charge.fee)},${major(charge.gross - charge.fee)}`;
      rows.push(
        `txn_${id},${day(-4)} 10:00:00,${day(-3)} 00:00:00,usd,${amounts},charge,ch_${id},${payoutId},Order ${id}`,
      );
    });
    const dates = `${day(-3)} 00:00:00,${day(-3)} 00:00:00`;
    rows.push(
      `txn_${payoutId},${dates},usd,${major(-net)},0.00,${major(-net)},payout,${payoutId},${payoutId},STRIPE PAYOUT`,
    );
  }
  return `${rows.join('\n')}\n`;
}

/** The platform books a payout's sales in one transaction, tagged with the payout id, and the payout itself. */
async function bookPayout(
  tenant: TestTenant,
  payoutId: string,
  totals: { gross: bigint; fee: bigint },
  feeBooked = totals.fee,
) {
  await mustPost(api, tenant.posterKey, {
    externalRef: `sales:${payoutId}`,
    metadata: { payoutId },
    entries: [
      {
        account: 'assets:gateway:clearing',
        direction: 'debit',
        amount: String(totals.gross - feeBooked),
        currency: 'USD',
      },
      { account: 'expenses:gateway-fees', direction: 'debit', amount: String(feeBooked), currency: 'USD' },
      { account: 'income:sales', direction: 'credit', amount: String(totals.gross), currency: 'USD' },
    ],
  });
  await mustPost(
    api,
    tenant.posterKey,
    transfer('assets:bank:usd', 'assets:gateway:clearing', String(totals.gross - totals.fee), 'USD', {
      externalRef: payoutId,
    }),
  );
}

const brief = (ticket: any) => [ticket.kind, ticket.source, ticket.owner, ticket.amount, ticket.currency];

describeWithStatementSamples('a month of statements against the ledger, with deliberate breaks', () => {
  let tenant: TestTenant;
  let key: string;
  const payoutA = payout(200, 1);
  const payoutB = payout(5, 2);
  let holdId: string;
  let continuity: any[];

  beforeAll(async () => {
    tenant = await seededTenant(api, 'month end');
    const accounts = [
      ['assets:gateway:clearing', 'USD', 'debit'],
      ['assets:bank:usd', 'USD', 'debit'],
      ['expenses:gateway-fees', 'USD', 'debit'],
      ['income:sales', 'USD', 'credit'],
      ['assets:bank:eur', 'EUR', 'debit'],
      ['income:eur', 'EUR', 'credit'],
    ] as const;
    for (const [code, currency, normalBalance] of accounts)
      await createAccount(api, tenant.adminKey, { code, currency, normalBalance, allowNegative: true });
    await createAccount(api, tenant.adminKey, { code: 'wallet', currency: 'USD', normalBalance: 'credit' });
    key = await financeKey(api, tenant);
    await createSource(api, key, { name: 'gateway', account: 'assets:gateway:clearing', format: 'csv:gateway' });
    await createSource(api, key, { name: 'bank-usd', account: 'assets:bank:usd', format: 'csv:bank' });
    await createSource(api, key, { name: 'bank-eur', account: 'assets:bank:eur', format: 'camt053' });
    await routeOwner(api, key, { priority: 1, kind: 'stale_hold', owner: 'platform-oncall' });
    await routeOwner(api, key, { priority: 2, source: 'bank-eur', owner: 'treasury-eu' });
    await routeOwner(api, key, { priority: 3, source: 'gateway', owner: 'payments-ops' });
    await routeOwner(api, key, { priority: 4, accountPrefix: 'assets:bank:', owner: 'treasury-us' });
    await routeOwner(api, key, { priority: 100, owner: 'finance-lead' });

    // The ledger: both payouts booked, payout B's fee one cent too high.
    await bookPayout(tenant, 'po_A', payoutA);
    await bookPayout(tenant, 'po_B', payoutB, payoutB.fee + 1n);
    // The real camt samples: two of their three entries are in the ledger (000000001's deposit is not).
    await mustPost(
      api,
      tenant.posterKey,
      transfer('assets:bank:eur', 'income:eur', '885', 'EUR', { externalRef: 'MUELL/FINP/RA12345' }),
    );
    await mustPost(
      api,
      tenant.posterKey,
      transfer('income:eur', 'assets:bank:eur', '700', 'EUR', { externalRef: '000000002' }),
    );
    // A hold its expiry has passed but nobody expired.
    await mustPost(api, tenant.posterKey, transfer('equity:seed', 'wallet', '5000'));
    holdId = (
      await mustPost(api, tenant.posterKey, {
        ...transfer('wallet', 'equity:seed', '1500'),
        pending: { expiresAt: isoFromNow(60_000) },
      })
    ).id;
    await sqlRows(
      api,
      `UPDATE open_holds SET expires_at = now() - interval '1 hour' WHERE tenant_id = $1 AND hold_id = $2`,
      [tenant.tenantId, holdId],
    );

    await uploadStatement(
      api,
      key,
      'gateway',
      'balance_transactions.csv',
      gatewayCsv({ po_A: payoutA, po_B: payoutB }),
    );
    const deposit = (payoutId: string, net: bigint) =>
      `${day(-2)},${day(-2)},STRIPE PAYOUT ${payoutId},${major(net)},USD,${payoutId},Stripe`;
    // The bank reports payout A's deposit twice.
    await uploadStatement(
      api,
      key,
      'bank-usd',
      'usd.csv',
      bankCsv([deposit('po_A', payoutA.net), deposit('po_A', payoutA.net), deposit('po_B', payoutB.net)]),
    );
    await uploadSample(api, key, 'bank-eur', 'camt/camt053.v2.multi.statement.xml');
    await uploadSample(api, key, 'bank-eur', 'camt/camt053.v8.xml');
  });

  it('one run opens exactly the expected tickets, each for its owner', async () => {
    const run = await runReconciliation(api, key);
    // References: both payouts on the gateway, both deposits at the bank, two camt entries; the group:
    // payout A's 200 charges.
    expect(run.stats.matched).toEqual({ reference: 6, group: 200, amountDate: 0, reversal: 0 });
    const open = await listTickets(api, key, '&status=open');
    continuity = open.filter((ticket) => ticket.kind === 'balance_continuity');
    // The real samples' own balances do not all add up (see shared/statements/README.md): the bank's, ticketed as such.
    expect(continuity.length).toBeGreaterThan(0);
    for (const ticket of continuity)
      expect(brief(ticket)).toEqual([
        'balance_continuity',
        'bank-eur',
        'treasury-eu',
        expect.any(String),
        expect.any(String),
      ]);
    expect(
      open
        .filter((ticket) => ticket.kind !== 'balance_continuity')
        .map(brief)
        .sort(),
    ).toEqual(
      [
        ['amount_mismatch', 'gateway', 'payments-ops', '1', 'USD'],
        ['duplicate', 'bank-usd', 'treasury-us', String(payoutA.net), 'USD'],
        ['missing_in_ledger', 'bank-eur', 'treasury-eu', '885', 'EUR'],
        ['stale_hold', null, 'platform-oncall', '1500', 'USD'],
      ].sort(),
    );
    const feeOff = open.find((ticket) => ticket.kind === 'amount_mismatch');
    expect(feeOff.evidence).toMatchObject({
      field: 'payoutId',
      reference: 'po_B',
      statementLines: 5,
      ledgerEntries: 1,
      statementAmount: String(payoutB.net),
      ledgerAmount: String(payoutB.net - 1n),
    });
  });

  it('explains the payout group: 200 gateway lines, net of fees, against the one sales entry', async () => {
    const [sales] = await sqlRows<{ id: string }>(
      api,
      `SELECT id::text FROM transactions WHERE tenant_id = $1 AND external_ref = 'sales:po_A'`,
      [tenant.tenantId],
    );
    const [match] = (await api.request('GET', `/v1/matches?transaction=${sales!.id}`, { key })).body.data;
    expect(match).toMatchObject({
      rule: 'group',
      evidence: { field: 'payoutId', reference: 'po_A', lines: 200, entries: 1, amount: String(payoutA.net) },
    });
    expect(match.statementLines).toHaveLength(200);
    expect(match.entries).toEqual([
      expect.objectContaining({ transactionId: sales!.id, direction: 'debit', amount: String(payoutA.net) }),
    ]);
    const netOfFees = match.statementLines.reduce((sum: bigint, line: any) => sum + BigInt(line.amount), 0n);
    expect(netOfFees).toBe(payoutA.gross - payoutA.fee);
  });

  it('a second run opens nothing', async () => {
    const again = await runReconciliation(api, key);
    expect(again.stats).toMatchObject({ opened: 0, reopened: 0, resolved: 0 });
  });

  it('fixing each cause resolves its ticket on the next run; only the bank files not adding up stay open', async () => {
    // The deposit is booked; the fee is corrected by an adjusting entry of the payout; the bank
    // reverses its duplicate; the hold is voided.
    await mustPost(
      api,
      tenant.posterKey,
      transfer('assets:bank:eur', 'income:eur', '885', 'EUR', { externalRef: '000000001' }),
    );
    await mustPost(
      api,
      tenant.posterKey,
      transfer('assets:gateway:clearing', 'expenses:gateway-fees', '1', 'USD', {
        externalRef: 'fee-correction:po_B',
        metadata: { payoutId: 'po_B' },
      }),
    );
    await uploadStatement(
      api,
      key,
      'bank-usd',
      'usd-correction.csv',
      bankCsv([`${day(-1)},${day(-1)},CORRECTION DUPLICATE,${major(-payoutA.net)},USD,po_A,Stripe`]),
    );
    const voided = await api.request('POST', `/v1/transactions/${holdId}/void`, {
      key: tenant.posterKey,
      idempotencyKey: crypto.randomUUID(),
      body: {},
    });
    expect(voided.status, JSON.stringify(voided.body)).toBe(201);

    const fixed = await runReconciliation(api, key);
    expect(fixed.stats).toMatchObject({ opened: 0, reopened: 0, resolved: 4 });
    expect(fixed.stats.matched).toMatchObject({ reference: 1, group: 5, reversal: 2 });
    const open = await listTickets(api, key, '&status=open');
    expect(open.map((ticket) => ticket.id).sort()).toEqual(continuity.map((ticket) => ticket.id).sort());
    const resolved = await listTickets(api, key, '&status=resolved');
    expect(resolved.map((ticket) => ticket.kind).sort()).toEqual([
      'amount_mismatch',
      'duplicate',
      'missing_in_ledger',
      'stale_hold',
    ]);
    for (const ticket of resolved) {
      const detail = (await api.request('GET', `/v1/discrepancies/${ticket.id}`, { key })).body;
      expect(detail.history.at(-1)).toMatchObject({ action: 'auto_resolved', note: expect.stringContaining(fixed.id) });
    }
  });
});
