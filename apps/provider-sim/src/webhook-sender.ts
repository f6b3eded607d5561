import { backoffDelayMs, signatureHeader } from '@ledger/outbox';
import { PROVIDER_SIGNATURE_HEADER } from '@ledger/payments';
import type { PaymentView } from './payment-view';
import { type Random, randomBetween } from './random';
import type { PaymentEventType } from './sim-payments';

/**
 * Attempts per delivery before the simulator gives it up, as a provider stops retrying after a while:
 * about three minutes of backoff on average. Real providers retry for hours or days. With 12 (about a
 * minute, often less with full jitter) a delivery could meet a receiver that the fault tests kill several
 * times in a minute down at every attempt, and be given up while the receiver was fine in between.
 */
export const WEBHOOK_ATTEMPTS_MAX = 20;
/** Deliveries waiting or in flight at most; past it new ones are dropped (and counted). */
export const WEBHOOK_PENDING_MAX = 10_000;
const WEBHOOK_TIMEOUT_MS = 5_000;
const BACKOFF_BASE_MS = 100;
const BACKOFF_CAP_MS = 30_000;
/** Each event goes out after a random wait up to this, so that events overtake each other. */
const SEND_DELAY_MS_MAX = 300;
/** The share of events sent twice (the same event id), as real providers do after a lost acknowledgement. */
const DUPLICATE_PROBABILITY = 0.1;

export interface WebhookTarget {
  url: string;
  secret: string;
}

export interface WebhookStatistics {
  pending: number;
  delivered: number;
  failedAttempts: number;
  abandoned: number;
  dropped: number;
}

interface Delivery {
  body: string;
  attempt: number;
}

/** Sends the provider's events: late, sometimes twice, out of order, retried with backoff until a 2xx. */
export class WebhookSender {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<AbortController>();
  private readonly statistics: WebhookStatistics = {
    pending: 0,
    delivered: 0,
    failedAttempts: 0,
    abandoned: 0,
    dropped: 0,
  };
  private eventSequence = 0;
  private closed = false;

  constructor(
    private target: WebhookTarget | null,
    private readonly random: Random,
    private readonly log: (message: string) => void,
  ) {}

  /** Later attempts, retries included, go to the new target; null stops sending. */
  setTarget(target: WebhookTarget | null): void {
    this.target = target;
  }

  stats(): WebhookStatistics {
    return { ...this.statistics };
  }

  /** The payment as it is when the event happens: a late copy tells an older state, as a real one would. */
  send(type: PaymentEventType, payment: PaymentView): void {
    if (this.target === null || this.closed) return;
    this.eventSequence += 1;
    const body = JSON.stringify({ id: `evt_${this.eventSequence.toString().padStart(8, '0')}`, type, payment });
    const copies = this.random() < DUPLICATE_PROBABILITY ? 2 : 1;
    for (let copy = 0; copy < copies; copy += 1) {
      if (this.statistics.pending >= WEBHOOK_PENDING_MAX) {
        this.statistics.dropped += 1;
        continue;
      }
      this.statistics.pending += 1;
      this.schedule({ body, attempt: 1 }, randomBetween(this.random, 0, SEND_DELAY_MS_MAX));
    }
  }

  /** Stops every timer and request; what was not delivered is dropped. */
  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const controller of this.inFlight) controller.abort();
  }

  private schedule(delivery: Delivery, delayMs: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(delivery);
    }, delayMs);
    this.timers.add(timer);
  }

  private async attempt(delivery: Delivery): Promise<void> {
    const target = this.target;
    if (target === null || this.closed) {
      this.finish('abandoned');
      return;
    }
    const outcome = await this.post(target, delivery.body);
    if (this.closed) return;
    if (outcome === 'delivered') {
      this.finish('delivered');
      return;
    }
    this.statistics.failedAttempts += 1;
    if (delivery.attempt >= WEBHOOK_ATTEMPTS_MAX) {
      this.log(`webhook abandoned after ${delivery.attempt} attempts: ${outcome}`);
      this.finish('abandoned');
      return;
    }
    const delayMs = backoffDelayMs(delivery.attempt, BACKOFF_BASE_MS, BACKOFF_CAP_MS, this.random);
    this.schedule({ body: delivery.body, attempt: delivery.attempt + 1 }, delayMs);
  }

  /** 'delivered' on a 2xx; otherwise what went wrong. */
  private async post(target: WebhookTarget, body: string): Promise<string> {
    const controller = new AbortController();
    this.inFlight.add(controller);
    const timeout = setTimeout(() => controller.abort(), WEBHOOK_TIMEOUT_MS);
    try {
      const signature = signatureHeader(body, [target.secret], Math.floor(Date.now() / 1000));
      const response = await fetch(target.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [PROVIDER_SIGNATURE_HEADER]: signature },
        body,
        signal: controller.signal,
        redirect: 'manual',
      });
      // The receiver's answer body is of no interest; reading it frees the connection.
      await response.body?.cancel();
      return response.status >= 200 && response.status < 300 ? 'delivered' : `HTTP ${response.status}`;
    } catch (error) {
      return error instanceof Error
        ? `${error.message} ${String((error.cause as Error | undefined)?.message ?? '')}`
        : 'error';
    } finally {
      clearTimeout(timeout);
      this.inFlight.delete(controller);
    }
  }

  private finish(how: 'delivered' | 'abandoned'): void {
    this.statistics.pending -= 1;
    this.statistics[how] += 1;
  }
}
