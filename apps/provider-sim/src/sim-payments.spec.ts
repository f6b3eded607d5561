import { describe, expect, it } from 'vitest';
import type { PaymentRequest } from './payment-request';
import { type PaymentEventType, SimPayments } from './sim-payments';

const request: PaymentRequest = {
  reference: 'order-1',
  direction: 'payout',
  amountMinor: 1050n,
  currency: 'EUR',
  counterparty: { name: 'Acme GmbH', iban: 'DE89370400440532013000' },
  description: null,
};
const now = () => new Date('2026-03-04T10:00:00.000Z');
const execute = { reject: false, pending: false };

function book() {
  const events: [PaymentEventType, string][] = [];
  const payments = new SimPayments(now, (type, payment) => events.push([type, payment.idempotencyKey]));
  return { payments, events };
}

describe('SimPayments', () => {
  it('executes a key once however often it is submitted', () => {
    const { payments, events } = book();
    const first = payments.submit('k1', request, execute);
    for (let repeat = 0; repeat < 5; repeat += 1) {
      expect(payments.submit('k1', { ...request, counterparty: { ...request.counterparty } }, execute)).toEqual({
        kind: 'accepted',
        payment: first.kind === 'accepted' ? first.payment : undefined,
        repeat: true,
      });
    }
    expect(first).toMatchObject({ kind: 'accepted', repeat: false, payment: { status: 'executed' } });
    expect(payments.executionCount('k1')).toBe(1);
    expect(payments.execute('k1')).toBe(false);
    expect(payments.executionCount('k1')).toBe(1);
    expect(events).toEqual([['payment.executed', 'k1']]);
  });

  it('refuses the same key with another body, without executing again', () => {
    const { payments } = book();
    payments.submit('k1', request, execute);
    expect(payments.submit('k1', { ...request, amountMinor: 1051n }, execute).kind).toBe('key_reused');
    expect(payments.executionCount('k1')).toBe(1);
  });

  it('keeps a rejected key rejected and never executes it', () => {
    const { payments, events } = book();
    expect(payments.submit('k1', request, { reject: true, pending: false })).toMatchObject({
      kind: 'rejected',
      payment: { status: 'rejected', executedAt: null },
    });
    expect(payments.submit('k1', request, execute)).toMatchObject({ kind: 'rejected', repeat: true });
    expect(payments.execute('k1')).toBe(false);
    expect(payments.executionCount('k1')).toBe(0);
    expect(events).toEqual([['payment.rejected', 'k1']]);
  });

  it('executes a pending key once, later, and returns only what was executed', () => {
    const { payments, events } = book();
    payments.submit('k1', request, { reject: false, pending: true });
    expect(payments.returnPayment('k1', 'closed')).toBe(false);
    expect(payments.find('k1')?.status).toBe('pending');
    expect([payments.execute('k1'), payments.execute('k1')]).toEqual([true, false]);
    expect(payments.returnPayment('k1', 'closed')).toBe(true);
    expect(payments.returnPayment('k1', 'closed')).toBe(false);
    expect(payments.find('k1')).toMatchObject({
      status: 'returned',
      reason: 'closed',
      returnedAt: now().toISOString(),
    });
    expect(payments.executionCount('k1')).toBe(1);
    expect(events.map(([type]) => type)).toEqual(['payment.executed', 'payment.returned']);
  });

  it('stops taking new keys at its maximum, still answering known ones', () => {
    const payments = new SimPayments(now, () => {}, 2);
    payments.submit('a', request, execute);
    payments.submit('b', request, execute);
    expect(payments.submit('c', request, execute).kind).toBe('full');
    expect(payments.submit('a', request, execute).kind).toBe('accepted');
  });

  it('lists executions bounded, with any key text', () => {
    const { payments } = book();
    for (const key of ['__proto__', 'b', 'c']) payments.submit(key, request, execute);
    expect(payments.executionCounts(2)).toEqual({ executions: { ['__proto__']: 1, b: 1 }, truncated: true });
    expect(JSON.stringify(payments.executionCounts(10))).toBe(
      '{"executions":{"__proto__":1,"b":1,"c":1},"truncated":false}',
    );
  });
});
