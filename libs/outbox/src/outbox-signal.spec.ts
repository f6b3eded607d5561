import type { Database } from '@ledger/db';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ANNOUNCE_INTERVAL_MS, OUTBOX_CHANNEL, OutboxSignal } from './outbox-signal';

/** A signal on a database whose transactions have all committed: afterCommit runs at once; notify is counted. */
function signalOf() {
  const notified: string[] = [];
  const db = {
    afterCommit: (callback: () => void) => callback(),
    notify: async (channel: string) => {
      notified.push(channel);
    },
  } as unknown as Database;
  return { signal: new OutboxSignal(db), notified };
}

describe('OutboxSignal', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('tells the workers at once of the first events after a quiet spell', () => {
    const { signal, notified } = signalOf();
    signal.eventsWritten();
    expect(notified).toEqual([OUTBOX_CHANNEL]);
  });

  it('tells them once more at the end of the interval of the events written within it', async () => {
    const { signal, notified } = signalOf();
    signal.eventsWritten();
    for (let index = 0; index < 5; index++) signal.eventsWritten();
    expect(notified).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(ANNOUNCE_INTERVAL_MS);
    expect(notified).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(ANNOUNCE_INTERVAL_MS * 5);
    expect(notified).toHaveLength(2);
  });

  it('sends nothing on shutdown of what was still to be told (the workers poll)', async () => {
    const { signal, notified } = signalOf();
    signal.eventsWritten();
    signal.eventsWritten();
    signal.onApplicationShutdown();
    await vi.advanceTimersByTimeAsync(ANNOUNCE_INTERVAL_MS * 2);
    expect(notified).toHaveLength(1);
  });
});
