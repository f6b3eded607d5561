import { collectStatement } from '@ledger/imports';
import { describe, expect, it } from 'vitest';
import type { PaymentRequest } from './payment-request';
import { csvField, readReportRange, renderSettlementCsv } from './settlement-report';
import type { SimPayment } from './sim-payments';

function payment(key: string, overrides: Partial<SimPayment>, request: Partial<PaymentRequest> = {}): SimPayment {
  return {
    id: `pay_${key}`,
    idempotencyKey: key,
    fingerprint: '',
    status: 'executed',
    reason: null,
    executedAt: '2026-03-04T10:00:00.000Z',
    returnedAt: null,
    ...overrides,
    request: {
      reference: key,
      direction: 'payout',
      amountMinor: 1050n,
      currency: 'EUR',
      counterparty: { name: 'Acme GmbH' },
      description: null,
      ...request,
    },
  };
}

const payments = [
  payment('order-1', {}, { description: 'Invoice "42", March', counterparty: { name: 'Müller, Jan' } }),
  payment('order-2', {
    status: 'returned',
    reason: 'account closed',
    executedAt: '2026-03-03T23:59:59.000Z',
    returnedAt: '2026-03-05T08:00:00.000Z',
  }),
  payment('order-3', { executedAt: '2026-03-04T11:00:00.000Z' }, { amountMinor: 1234567n, currency: 'JPY' }),
  payment('order-4', { status: 'rejected', executedAt: null, reason: 'refused' }),
  payment('order-5', { status: 'pending', executedAt: null }),
  payment('order-6', { executedAt: '2026-04-01T00:00:00.000Z' }, { amountMinor: 5n, currency: 'BHD' }),
];

describe('renderSettlementCsv', () => {
  it('writes executions negative and returns positive, by date, escaped', () => {
    expect(renderSettlementCsv(payments, { from: '2026-03-01', to: '2026-03-31' }).split('\r\n')).toEqual([
      'date,value date,amount,currency,reference,description,counterparty',
      '2026-03-03,2026-03-03,-10.50,EUR,order-2,payout order-2,Acme GmbH',
      '2026-03-04,2026-03-04,-10.50,EUR,order-1,"Invoice ""42"", March","Müller, Jan"',
      '2026-03-04,2026-03-04,-1234567,JPY,order-3,payout order-3,Acme GmbH',
      '2026-03-05,2026-03-05,10.50,EUR,order-2:return,return of order-2: account closed,Acme GmbH',
      '',
    ]);
  });

  it('keeps to the range, both ends included', () => {
    const lines = renderSettlementCsv(payments, { from: '2026-03-05', to: '2026-04-01' }).trim().split('\r\n');
    expect(lines.slice(1)).toEqual([
      '2026-03-05,2026-03-05,10.50,EUR,order-2:return,return of order-2: account closed,Acme GmbH',
      '2026-04-01,2026-04-01,-0.005,BHD,order-6,payout order-6,Acme GmbH',
    ]);
  });

  it('is read by the imports as csv:bank, amount for amount', async () => {
    const text = renderSettlementCsv(payments, { from: '2026-03-01', to: '2026-04-30' });
    async function* input() {
      yield text;
    }
    const { lines, errors } = await collectStatement('csv:bank', input(), { linesMax: 100, accountId: 'sim' });
    expect(errors).toEqual([]);
    expect(
      lines.map((line) => [line.bookedOn, line.amountMinor, line.currency, line.references.customerReference]),
    ).toEqual([
      ['2026-03-03', -1050n, 'EUR', 'order-2'],
      ['2026-03-04', -1050n, 'EUR', 'order-1'],
      ['2026-03-04', -1234567n, 'JPY', 'order-3'],
      ['2026-03-05', 1050n, 'EUR', 'order-2:return'],
      ['2026-04-01', -5n, 'BHD', 'order-6'],
    ]);
    expect(lines[1]).toMatchObject({ description: 'Invoice "42", March', counterparty: { name: 'Müller, Jan' } });
  });
});

describe('csvField', () => {
  it('quotes only what needs it', () => {
    expect(['plain', 'a,b', 'say "hi"', 'two\nlines', ' padded'].map(csvField)).toEqual([
      'plain',
      '"a,b"',
      '"say ""hi"""',
      '"two\nlines"',
      '" padded"',
    ]);
  });
});

describe('readReportRange', () => {
  it('takes real dates in order, within the maximum span', () => {
    expect(readReportRange('2026-03-01', '2026-03-01')).toEqual({ from: '2026-03-01', to: '2026-03-01' });
    expect(readReportRange('2026-02-30', '2026-03-01')).toMatch(/YYYY-MM-DD/);
    expect(readReportRange('2026-13-01', '2026-13-02')).toMatch(/YYYY-MM-DD/);
    expect(readReportRange('2026-03-02', '2026-03-01')).toMatch(/after/);
    expect(readReportRange('2025-01-01', '2026-03-01')).toMatch(/at most/);
    expect(readReportRange(null, '2026-03-01')).toMatch(/required/);
  });
});
