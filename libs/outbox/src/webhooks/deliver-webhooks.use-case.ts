import { Inject, Injectable } from '@nestjs/common';
import { backoffDelayMs } from '../backoff';
import { WEBHOOK_SETTINGS, type WebhookSettings } from './webhook-settings';
import { postWebhook } from './webhook-http';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, signatureHeader } from './webhook-signature';
import { WebhookRepository } from './webhook.repository';
import type { DueDelivery } from './webhooks.sql';

export const WEBHOOK_BATCH_SIZE_MAX = 20;
/** Added to the request timeout for the lease on a delivery being sent. */
const LEASE_MARGIN_MS = 30_000;

export interface DeliveryBatchResult {
  claimed: number;
  delivered: number;
  failed: number;
  deadLettered: number;
}

type Attempt = { ok: true; status: number } | { ok: false; status: number | null; error: string };

/**
 * One batch of due webhook deliveries: lease them (SKIP LOCKED, so several workers share the queue),
 * POST them in parallel, record each outcome. A failure is retried after an exponential backoff with
 * full jitter; after `attemptsMax` attempts it is dead-lettered. Delivery is at least once: a crash
 * after a POST and before its outcome is recorded sends it again when the lease ends, and the
 * receiver drops the copy by `Ledger-Event-Id`.
 */
@Injectable()
export class DeliverWebhooksUseCase {
  constructor(
    private readonly webhooks: WebhookRepository,
    @Inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
  ) {}

  async execute(): Promise<DeliveryBatchResult> {
    const due = await this.webhooks.leaseDue(WEBHOOK_BATCH_SIZE_MAX, this.settings.timeoutMs + LEASE_MARGIN_MS);
    const attempts = await Promise.all(due.map((delivery) => this.attempt(delivery)));
    const result: DeliveryBatchResult = { claimed: due.length, delivered: 0, failed: 0, deadLettered: 0 };
    for (const [index, attempt] of attempts.entries()) {
      const delivery = due[index]!;
      if (attempt.ok) {
        await this.webhooks.recordDelivered(delivery, attempt.status);
        result.delivered++;
        continue;
      }
      const retryInMs = backoffDelayMs(delivery.attempts + 1, this.settings.backoffBaseMs, this.settings.backoffCapMs);
      const status = await this.webhooks.recordFailed(delivery, {
        responseStatus: attempt.status,
        error: attempt.error,
        retryInMs,
        attemptsMax: this.settings.attemptsMax,
      });
      result.failed++;
      if (status === 'dead') result.deadLettered++;
    }
    return result;
  }

  private async attempt(delivery: DueDelivery): Promise<Attempt> {
    const secrets = delivery.previous_secret === null ? [delivery.secret] : [delivery.secret, delivery.previous_secret];
    const headers = {
      [EVENT_ID_HEADER]: delivery.event_id,
      [SIGNATURE_HEADER]: signatureHeader(delivery.body, secrets, Math.floor(Date.now() / 1000)),
    };
    try {
      const response = await postWebhook(new URL(delivery.url), delivery.body, headers, {
        timeoutMs: this.settings.timeoutMs,
        allowPrivate: this.settings.allowPrivateTargets,
      });
      if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status };
      return { ok: false, status: response.status, error: `answered ${response.status}` };
    } catch (error) {
      return { ok: false, status: null, error: error instanceof Error ? error.message : String(error) };
    }
  }
}
