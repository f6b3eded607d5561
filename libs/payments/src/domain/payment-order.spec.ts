import { describe, expect, it } from 'vitest';
import { FINAL_STATUSES, type PaymentOrderStatus, nextMove, postingRefs, submitKey } from './payment-order';

/** Follows the moves as the saga does, one transition at a time. */
function path(from: PaymentOrderStatus, provider: Parameters<typeof nextMove>[1]): PaymentOrderStatus[] {
  const seen: PaymentOrderStatus[] = [];
  let status = from;
  for (let move = nextMove(status, provider); move !== null; move = nextMove(status, provider)) {
    status = move;
    seen.push(status);
    expect(seen.length).toBeLessThan(5);
  }
  return seen;
}

describe('payment order moves', () => {
  it('takes an accepted payment through the pivot, then to settled when it is executed', () => {
    expect(path('submitting', 'pending')).toEqual(['submitted']);
    expect(path('submitting', 'executed')).toEqual(['submitted', 'settled']);
    expect(path('submitted', 'executed')).toEqual(['settled']);
  });

  it('walks a return learned late through every state between, in order', () => {
    expect(path('submitting', 'returned')).toEqual(['submitted', 'settled', 'returned']);
    expect(path('settled', 'returned')).toEqual(['returned']);
  });

  it('rejects before settlement only: a settled order is never rejected, only returned', () => {
    expect(path('submitting', 'rejected')).toEqual(['rejected']);
    expect(path('submitted', 'rejected')).toEqual(['rejected']);
    expect(path('settled', 'rejected')).toEqual([]);
  });

  it('ignores what says nothing new: late, repeated or out-of-order news', () => {
    expect(path('submitted', 'pending')).toEqual([]);
    expect(path('settled', 'executed')).toEqual([]);
    expect(path('settled', 'pending')).toEqual([]);
    for (const final of FINAL_STATUSES) {
      for (const provider of ['pending', 'executed', 'rejected', 'returned'] as const) {
        expect(path(final, provider)).toEqual([]);
      }
    }
  });

  it('never moves an order the provider cannot know of yet', () => {
    expect(path('reserved', 'executed')).toEqual([]);
  });

  it('derives the same provider key and references for an order every time', () => {
    expect(submitKey('0190')).toBe('0190:submit');
    expect(postingRefs('0190')).toEqual({ reserve: '0190:reserve', settle: '0190', return: '0190:return' });
  });
});
