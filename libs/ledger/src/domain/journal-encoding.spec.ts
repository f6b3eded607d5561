import { describe, expect, it } from 'vitest';
import { JOURNAL_GENESIS_HASH, type JournalRecord, chainHash, encodeJournalRecord } from './journal-encoding';

const record: JournalRecord = {
  tenantId: '01a2292a-96ae-7728-89b0-d6f984050d70',
  transactionId: '01a2292a-d329-750f-bbf8-726a620587e0',
  status: 'posted',
  effectiveAt: new Date('2026-11-29T10:00:00.123Z'),
  createdAt: new Date('2026-11-29T10:00:00.456Z'),
  holdId: null,
  reversesId: null,
  expiresAt: null,
  descriptionDigest: Buffer.alloc(32, 7),
  entries: [
    {
      leg: 1,
      accountId: '01a2292a-96c1-7e3f-98ca-56f1bb5b692b',
      direction: 'credit',
      pending: false,
      amountMinor: 100n,
      currency: 'USD',
    },
    {
      leg: 0,
      accountId: '01a2292a-96c0-7878-a156-e2b1918919ff',
      direction: 'debit',
      pending: false,
      amountMinor: 100n,
      currency: 'USD',
    },
  ],
};

describe('journal encoding', () => {
  it('is deterministic and independent of entry order', () => {
    const reordered = { ...record, entries: [...record.entries].reverse() };
    expect(encodeJournalRecord(reordered).equals(encodeJournalRecord(record))).toBe(true);
    // 2 + 16 + 16 + 1 + 8 + 8 + 1 + 32 + 2 + 2 * (2 + 16 + 2 + 8 + 3)
    expect(encodeJournalRecord(record)).toHaveLength(148);
  });

  it('changes with every field that matters', () => {
    const base = encodeJournalRecord(record);
    const variants: JournalRecord[] = [
      { ...record, status: 'pending' },
      { ...record, effectiveAt: new Date(record.effectiveAt.getTime() + 1) },
      { ...record, holdId: record.transactionId },
      { ...record, descriptionDigest: Buffer.alloc(32, 8) },
      { ...record, entries: [{ ...record.entries[0]!, amountMinor: 101n }, record.entries[1]!] },
      { ...record, entries: [{ ...record.entries[0]!, pending: true }, record.entries[1]!] },
      { ...record, entries: [{ ...record.entries[0]!, currency: 'EUR' }, record.entries[1]!] },
    ];
    for (const variant of variants) expect(encodeJournalRecord(variant).equals(base)).toBe(false);
  });

  it('chains: each hash depends on the previous one', () => {
    const first = chainHash(JOURNAL_GENESIS_HASH, encodeJournalRecord(record));
    const second = chainHash(first, encodeJournalRecord(record));
    expect(first).toHaveLength(32);
    expect(second.equals(first)).toBe(false);
    expect(chainHash(JOURNAL_GENESIS_HASH, encodeJournalRecord(record)).equals(first)).toBe(true);
  });

  it('refuses malformed ids and currencies instead of encoding them ambiguously', () => {
    expect(() => encodeJournalRecord({ ...record, tenantId: 'nope' })).toThrow(RangeError);
    expect(() => encodeJournalRecord({ ...record, entries: [{ ...record.entries[0]!, currency: 'usd' }] })).toThrow(
      RangeError,
    );
  });
});
