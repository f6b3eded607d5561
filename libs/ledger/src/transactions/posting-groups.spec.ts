import type { Database } from '@ledger/db';
import { describe, expect, it } from 'vitest';
import type { NamedTransactionRepository } from './named-transaction.repository';
import type { PostingEngine } from './posting-engine';
import { POSTING_GROUP_BYTES_MAX, POSTING_GROUP_ITEMS_MAX, takeGroup } from './group-lanes';
import { GroupTransaction } from './group-transaction';
import type { GroupedKey, GroupedKeySteps } from './grouped-request';
import { PostingGroups } from './posting-groups';
import type { TransactionRepository } from './transaction.repository';
import type { TransactionView } from './transaction.view';

function waiting(name: string, bytes = 100, size = 1, names = [name]) {
  return { name, bytes, size, names };
}

const POSTINGS = { itemsMax: POSTING_GROUP_ITEMS_MAX, bytesMax: POSTING_GROUP_BYTES_MAX };

const names = (items: readonly { name: string }[]) => items.map((item) => item.name);

describe('takeGroup', () => {
  it('takes everything queued, in arrival order, up to the item bound', () => {
    const queue = Array.from({ length: POSTING_GROUP_ITEMS_MAX + 3 }, (_, index) => waiting(`k${index}`));
    const group = takeGroup(queue, POSTINGS);
    expect(group).toHaveLength(POSTING_GROUP_ITEMS_MAX);
    expect(names(group.slice(0, 2))).toEqual(['k0', 'k1']);
    expect(names(queue)).toEqual([
      `k${POSTING_GROUP_ITEMS_MAX}`,
      `k${POSTING_GROUP_ITEMS_MAX + 1}`,
      `k${POSTING_GROUP_ITEMS_MAX + 2}`,
    ]);
  });

  it('stops at the byte bound, but always takes the first item', () => {
    const half = POSTING_GROUP_BYTES_MAX / 2;
    const queue = [waiting('big', POSTING_GROUP_BYTES_MAX * 2), waiting('a', half)];
    expect(names(takeGroup(queue, POSTINGS))).toEqual(['big']);
    queue.push(waiting('b', half), waiting('c', 1));
    expect(names(takeGroup(queue, POSTINGS))).toEqual(['a', 'b']);
    expect(names(queue)).toEqual(['c']);
  });

  it('leaves a second request with a key already in the group for the next group', () => {
    const queue = [waiting('x'), waiting('y'), waiting('x'), waiting('z'), waiting('x')];
    expect(names(takeGroup(queue, POSTINGS))).toEqual(['x', 'y', 'z']);
    expect(names(takeGroup(queue, POSTINGS))).toEqual(['x']);
    expect(names(takeGroup(queue, POSTINGS))).toEqual(['x']);
    expect(queue).toEqual([]);
  });

  it('counts the items of each request against the item bound, whole requests only', () => {
    const bounds = { itemsMax: 1000, bytesMax: Number.POSITIVE_INFINITY };
    const queue = [waiting('a', 0, 600), waiting('b', 0, 300), waiting('c', 0, 200), waiting('d', 0, 100)];
    expect(names(takeGroup(queue, bounds))).toEqual(['a', 'b']);
    expect(names(takeGroup(queue, bounds))).toEqual(['c', 'd']);
  });

  it('leaves a request whose key is in a group in flight for a later group', () => {
    const queue = [waiting('x'), waiting('y'), waiting('z')];
    expect(names(takeGroup(queue, POSTINGS, new Set(['x'])))).toEqual(['y', 'z']);
    expect(names(queue)).toEqual(['x']);
    expect(takeGroup(queue, POSTINGS, new Set(['x']))).toEqual([]);
  });

  it('leaves a request that names what another of the group names (a hold, a transaction) for the next group', () => {
    const queue = [
      waiting('capture', 0, 1, ['key:1', 'transaction:h']),
      waiting('void', 0, 1, ['key:2', 'transaction:h']),
      waiting('posting', 0, 1, ['key:3']),
      waiting('reversal', 0, 1, ['key:4', 'transaction:r']),
    ];
    expect(names(takeGroup(queue, POSTINGS, new Set(['transaction:r'])))).toEqual(['capture', 'posting']);
    expect(names(takeGroup(queue, POSTINGS))).toEqual(['void', 'reversal']);
  });
});

// The order of the steps, with the database and the engine standing in: what is checked is when a group's
// answers are given relative to the next group's first statement, which no real server makes observable.
describe('PostingGroups', () => {
  function recordingGroups() {
    const log: string[] = [];
    let releaseFirst = () => {};
    const firstClaimed = new Promise<void>((resolve) => (releaseFirst = resolve));
    const steps: GroupedKeySteps<string> = {
      async claimAll(keys) {
        log.push(`claim ${keys.map((key) => key.name).join(',')}`);
        if (keys[0]!.name === 'a') await firstClaimed;
        return keys.map(() => undefined);
      },
      async storeAll(results) {
        return results.map((result) => `answer ${result.key.name}`);
      },
    };
    const db = {
      inTransaction: false,
      transaction: (_isolation: string, work: () => unknown) => work(),
      commitBehindSent: () => log.push('commit sent'),
    };
    const engine = {
      lock: async () => ({}),
      send: async (_tenantId: string, items: readonly unknown[]) => ({
        results: items.map(() => ({ status: 'created', transaction: {} as TransactionView })),
        written: Promise.resolve(),
      }),
    };
    const groups = new PostingGroups(
      db as unknown as Database,
      engine as unknown as PostingEngine,
      {} as NamedTransactionRepository,
      new GroupTransaction(
        db as unknown as Database,
        engine as unknown as PostingEngine,
        {} as TransactionRepository,
        {} as NamedTransactionRepository,
      ),
    );
    const request = {
      metadata: {},
      entries: [
        { account: 'cash', direction: 'debit' as const, amount: 5n, currency: 'USD' },
        { account: 'sales', direction: 'credit' as const, amount: 5n, currency: 'USD' },
      ],
    };
    const post = (name: string) => {
      const key: GroupedKey<string> = { name, steps };
      return groups
        .submit({ tenantId: 't', actor: 'test', request }, key)
        .then(({ answer }) => log.push(`answered ${answer}`));
    };
    return { log, post, releaseFirst };
  }

  it("answers a group only once the next group's statements have begun", async () => {
    const { log, post, releaseFirst } = recordingGroups();
    const first = post('a');
    const next = [post('b'), post('c')];
    releaseFirst();
    await Promise.all([first, ...next]);
    expect(log.slice(0, 3)).toEqual(['claim a', 'commit sent', 'claim b,c']);
    expect(log).toContain('answered answer a');
    expect(log.filter((step) => step.startsWith('answered'))).toHaveLength(3);
  });

  it('answers a group at once when nothing waits behind it', async () => {
    const { log, post, releaseFirst } = recordingGroups();
    const first = post('a');
    releaseFirst();
    await first;
    expect(log).toEqual(['claim a', 'commit sent', 'answered answer a']);
  });
});
