// A provider that answers `pending` and executes later (PROVIDER_SIM_EXECUTE_DELAY_MS), read by HttpConnector.
import { HttpConnector } from '@ledger/payments';
import { describe, expect, it } from 'vitest';
import { NO_FAULTS } from './faults';
import { startProviderSim } from './server';

const SECRET = 'sim_secret_spec';
const WEBHOOK_SECRET = 'sim_webhook_spec';

function request(key: string) {
  return {
    idempotencyKey: key,
    reference: key.replace(/:submit$/, ''),
    direction: 'payout' as const,
    amountMinor: 1050n,
    currency: 'EUR',
    counterparty: { name: 'Acme GmbH' },
    description: null,
  };
}

/** Waits for the later execution; the test's own timeout bounds the wait. */
async function eventually<T>(read: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a provider that executes later', () => {
  it('answers pending, then executes once', async () => {
    const delayed = await startProviderSim(
      {
        host: '127.0.0.1',
        port: 0,
        secret: SECRET,
        webhookUrl: null,
        webhookSecret: WEBHOOK_SECRET,
        faults: NO_FAULTS,
        seed: 'delayed',
        executeDelayMs: 50,
      },
      () => {},
    );
    try {
      const client = new HttpConnector({
        baseUrl: delayed.url,
        secret: SECRET,
        webhookSecret: '',
        requestTimeoutMs: 5000,
      });
      expect(await client.submit(request('order-later:submit'))).toMatchObject({
        kind: 'payment',
        payment: { status: 'pending', executedAt: null },
      });
      const executed = await eventually(async () => {
        const answer = await client.status('order-later:submit');
        return answer.kind === 'payment' && answer.payment.status === 'executed' ? answer : undefined;
      });
      expect(executed.payment.executedAt).not.toBeNull();
      expect(delayed.provider.payments.executionCount('order-later:submit')).toBe(1);
    } finally {
      await delayed.close();
    }
  });
});
