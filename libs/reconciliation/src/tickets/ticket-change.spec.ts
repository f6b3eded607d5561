import { DomainError } from '@ledger/errors';
import { describe, expect, it } from 'vitest';
import { assertNoteForClosing, assertVersion, planTicketChange } from './ticket-change';
import type { Ticket } from './ticket.views';

const opened = new Date('2026-11-30T10:00:00Z');
const now = new Date('2026-12-01T10:00:00Z');

const ticket = (overrides: Partial<Ticket> = {}): Ticket => ({
  id: '0194f1a2-7c3e-7d00-8a1b-2c3d4e5f6a7b',
  fingerprint: 'missing_in_ledger:x',
  kind: 'missing_in_ledger',
  severity: 'high',
  status: 'open',
  owner: 'unassigned',
  summary: 'bank booked 1.00 USD',
  amountMinor: 100n,
  currency: 'USD',
  accountCode: 'assets:bank',
  source: 'bank',
  evidence: {},
  openedAt: opened,
  dueAt: now,
  resolvedAt: null,
  lastSeenRunId: null,
  updatedAt: opened,
  version: 3,
  ...overrides,
});

const codeOf = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    return error instanceof DomainError ? error.code : 'not a domain error';
  }
  return undefined;
};

describe('planTicketChange', () => {
  it('assigns and closes in one change, the note on the first entry', () => {
    const planned = planTicketChange(ticket(), { owner: 'alice', status: 'resolved', note: 'fixed' }, now);
    expect(planned.next).toMatchObject({ owner: 'alice', status: 'resolved', resolvedAt: now, updatedAt: now });
    expect(planned.actions.map((entry) => entry.action)).toEqual(['assigned', 'resolved']);
    expect(planned.note).toBe('fixed');
  });

  it('makes no entry for what is already so, a noted one for a note alone', () => {
    expect(planTicketChange(ticket({ owner: 'alice' }), { owner: 'alice' }, now).actions).toEqual([]);
    expect(planTicketChange(ticket({ status: 'acknowledged' }), { status: 'acknowledged' }, now).actions).toEqual([]);
    expect(planTicketChange(ticket(), { note: 'called' }, now).actions).toEqual([{ action: 'noted', changes: {} }]);
  });

  it('refuses a status the ticket cannot reach', () => {
    expect(codeOf(() => planTicketChange(ticket({ status: 'resolved' }), { status: 'acknowledged' }, now))).toBe(
      'VALIDATION_FAILED',
    );
    expect(
      codeOf(() => planTicketChange(ticket({ status: 'acknowledged' }), { status: 'ignored', note: 'x' }, now)),
    ).toBeUndefined();
  });
});

describe('the checks before a change', () => {
  it('wants a note to resolve or ignore, and the version read when one is named', () => {
    expect(codeOf(() => assertNoteForClosing({ status: 'ignored', note: '  ' }))).toBe('VALIDATION_FAILED');
    expect(codeOf(() => assertNoteForClosing({ status: 'acknowledged' }))).toBeUndefined();
    expect(codeOf(() => assertVersion(ticket(), 2))).toBe('STALE_VERSION');
    expect(codeOf(() => assertVersion(ticket(), 3))).toBeUndefined();
    expect(codeOf(() => assertVersion(ticket(), undefined))).toBeUndefined();
  });
});
