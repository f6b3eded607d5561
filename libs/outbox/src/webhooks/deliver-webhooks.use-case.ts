import { Inject, Injectable, Logger } from '@nestjs/common';
import { backoffDelayMs } from '../backoff';
import { SlotPool } from '../slot-pool';
import { WEBHOOK_SETTINGS, type WebhookSettings } from './webhook-settings';
import { postWebhook } from './webhook-http';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, signatureHeader } from './webhook-signature';
import { WebhookRepository } from './webhook.repository';
import type { DueDelivery } from './webhooks.sql';

/** Deliveries leased at once (the worker's free slots permitting). */
export const WEBHOOK_LEASE_SIZE_MAX = 20;
/** Added to the request timeout for the lease on a delivery being sent. */
const LEASE_MARGIN_MS = 30_000;

type Attempt = { ok: true; status: number } | { ok: false; status: number | null; error: string };

/**
 * Webhook delivery as a pool of `concurrency` slots in this worker: each step leases as many due
 * deliveries as there are free slots (fairly across tenants and subscriptions, see LEASE_DUE) and
 * starts them; each records its own outcome when its endpoint answers or times out, and its slot is
 * free at once for the next lease (the listener of `whenSlotFrees` hears of it: the delivery loop leases
 * again then, not after its idle pause). So a slow endpoint holds only its own slots, never a whole batch,
 * and a fast one is sent the next delivery as soon as its per-subscription cap allows.
 *
 * A failure is retried after an exponential backoff with full jitter; after `attemptsMax` attempts it
 * is dead-lettered; failures in a row park the subscription (the circuit breaker). Delivery is at
 * least once: a crash after a POST and before its outcome is recorded sends it again when the lease
 * ends, and the receiver drops the copy by `Ledger-Event-Id`.
 */
@Injectable()
export class DeliverWebhooksUseCase {
  private readonly logger = new Logger('webhook-delivery');
  private readonly inFlight: SlotPool;

  constructor(
    private readonly webhooks: WebhookRepository,
    @Inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
  ) {
    this.inFlight = new SlotPool(settings.concurrency);
  }

  /** Called each time a delivery's outcome is recorded and its slot is free. */
  whenSlotFrees(listener: () => void): void {
    this.inFlight.whenFree(listener);
  }

  /** Waits for a free slot when all are taken, then leases and starts what is due; returns how many. */
  async execute(): Promise<{ claimed: number }> {
    await this.inFlight.slot();
    const due = await this.webhooks.leaseDue({
      limit: Math.min(this.inFlight.free, WEBHOOK_LEASE_SIZE_MAX),
      leaseMs: this.settings.timeoutMs + LEASE_MARGIN_MS,
      subscriptionConcurrencyMax: this.settings.subscriptionConcurrencyMax,
      tenantConcurrencyMax: this.settings.tenantConcurrencyMax,
      breakerFailures: this.settings.breakerFailures,
    });
    for (const delivery of due) this.inFlight.start(this.deliver(delivery));
    return { claimed: due.length };
  }

  /** Resolves when every delivery started has its outcome recorded (on shutdown, after the last step). */
  drain(): Promise<void> {
    return this.inFlight.drain();
  }

  private async deliver(delivery: DueDelivery): Promise<void> {
    const attempt = await this.attempt(delivery);
    try {
      if (attempt.ok) return await this.webhooks.recordDelivered(delivery, attempt.status);
      const retryInMs = backoffDelayMs(delivery.attempts + 1, this.settings.backoffBaseMs, this.settings.backoffCapMs);
      await this.webhooks.recordFailed(
        delivery,
        { responseStatus: attempt.status, error: attempt.error, retryInMs, attemptsMax: this.settings.attemptsMax },
        this.settings,
      );
    } catch (error) {
      // The lease ends and the delivery is sent again: at least once.
      const message = error instanceof Error ? error.message : String(error);
      this.logger.warn(`could not record the outcome of delivery ${delivery.id}: ${message}`);
    }
  }

  private async attempt(delivery: DueDelivery): Promise<Attempt> {
    const secrets = delivery.previous_secret === null ? [delivery.secret] : [delivery.secret, delivery.previous_secret];
    const headers = {
      [EVENT_ID_HEADER]: delivery.event_id,
      [SIGNATURE_HEADER]: signatureHeader(delivery.body, secrets, Math.floor(Date.now() / 1000)),
    };
    try {
      const response = await postWebhook(new URL(delivery.url), delivery.body, headers, {
        connectTimeoutMs: this.settings.connectTimeoutMs,
        responseTimeoutMs: this.settings.timeoutMs,
        allowPrivate: this.settings.allowPrivateTargets,
      });
      if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status };
      return { ok: false, status: response.status, error: `answered ${response.status}` };
    } catch (error) {
      return { ok: false, status: null, error: error instanceof Error ? error.message : String(error) };
    }
  }
}
