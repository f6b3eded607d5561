import assert from 'node:assert/strict';
import { type PaymentRequest, requestFingerprint } from './payment-request';

/** Payments the simulator keeps at most; past it a new key is answered 503, as a provider out of capacity. */
export const PAYMENTS_MAX = 1_000_000;

export type SimPaymentStatus = 'pending' | 'executed' | 'rejected' | 'returned';
export type PaymentEventType = 'payment.executed' | 'payment.rejected' | 'payment.returned';

export interface SimPayment {
  id: string;
  idempotencyKey: string;
  request: PaymentRequest;
  fingerprint: string;
  status: SimPaymentStatus;
  reason: string | null;
  executedAt: string | null;
  returnedAt: string | null;
}

export type SubmitOutcome =
  | { kind: 'accepted'; payment: SimPayment; repeat: boolean }
  | { kind: 'rejected'; payment: SimPayment; repeat: boolean }
  | { kind: 'key_reused'; payment: SimPayment }
  | { kind: 'full' };

export type PaymentListener = (type: PaymentEventType, payment: SimPayment) => void;

/**
 * The provider's book of payments by idempotency key. The rule the tests check: a key is executed at most
 * once, whatever is repeated, faulted or raced; `executions` counts every execution there was, so a
 * second one would show rather than be hidden.
 */
export class SimPayments {
  private readonly byKey = new Map<string, SimPayment>();
  private readonly executions = new Map<string, number>();
  private sequence = 0;

  constructor(
    private readonly now: () => Date,
    private readonly listener: PaymentListener,
    private readonly paymentsMax = PAYMENTS_MAX,
  ) {}

  /** Records a first submit (executed at once unless `pending`), or answers what a repeat finds. */
  submit(key: string, request: PaymentRequest, decision: { reject: boolean; pending: boolean }): SubmitOutcome {
    const fingerprint = requestFingerprint(request);
    const known = this.byKey.get(key);
    if (known !== undefined) {
      if (known.fingerprint !== fingerprint) return { kind: 'key_reused', payment: known };
      return { kind: known.status === 'rejected' ? 'rejected' : 'accepted', payment: known, repeat: true };
    }
    if (this.byKey.size >= this.paymentsMax) return { kind: 'full' };
    this.sequence += 1;
    const payment: SimPayment = {
      id: `pay_${this.sequence.toString().padStart(8, '0')}`,
      idempotencyKey: key,
      request,
      fingerprint,
      status: 'pending',
      reason: null,
      executedAt: null,
      returnedAt: null,
    };
    this.byKey.set(key, payment);
    if (decision.reject) {
      payment.status = 'rejected';
      payment.reason = 'simulated rejection: the beneficiary bank refused the payment';
      this.listener('payment.rejected', payment);
      return { kind: 'rejected', payment, repeat: false };
    }
    if (!decision.pending) this.execute(key);
    return { kind: 'accepted', payment, repeat: false };
  }

  /** Executes a pending payment; anything else is left as it is (a late timer, a repeated call). */
  execute(key: string): boolean {
    const payment = this.byKey.get(key);
    if (payment === undefined || payment.status !== 'pending') return false;
    payment.status = 'executed';
    payment.executedAt = this.now().toISOString();
    this.executions.set(key, (this.executions.get(key) ?? 0) + 1);
    this.listener('payment.executed', payment);
    return true;
  }

  /** The beneficiary's bank sent an executed payment back. */
  returnPayment(key: string, reason: string): boolean {
    const payment = this.byKey.get(key);
    if (payment === undefined || payment.status !== 'executed') return false;
    payment.status = 'returned';
    payment.reason = reason;
    payment.returnedAt = this.now().toISOString();
    this.listener('payment.returned', payment);
    return true;
  }

  find(key: string): SimPayment | undefined {
    return this.byKey.get(key);
  }

  executionCount(key: string): number {
    return this.executions.get(key) ?? 0;
  }

  /** Up to `limit` keys with how often each was executed, and whether more were left out. */
  executionCounts(limit: number): { executions: Record<string, number>; truncated: boolean } {
    assert.ok(Number.isSafeInteger(limit) && limit >= 0);
    // No prototype: a key is client text, and "__proto__" must be a key like any other.
    const executions: Record<string, number> = Object.create(null);
    let listed = 0;
    for (const [key, count] of this.executions) {
      if (listed === limit) return { executions, truncated: true };
      executions[key] = count;
      listed += 1;
    }
    return { executions, truncated: false };
  }

  get size(): number {
    return this.byKey.size;
  }

  values(): IterableIterator<SimPayment> {
    return this.byKey.values();
  }
}
