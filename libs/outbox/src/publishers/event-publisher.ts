import type { LedgerEvent } from '../outbox-event';

/** Where the relay sends events. A publish that resolves has been stored by the broker. */
export interface EventPublisher {
  readonly name: string;
  publish(event: LedgerEvent): Promise<void>;
  close(): Promise<void>;
}

/** No broker: events are only in the pull feed (`GET /v1/events`) and go to webhooks. */
export class NoEventPublisher implements EventPublisher {
  readonly name = 'none';

  async publish(): Promise<void> {}

  async close(): Promise<void> {}
}
