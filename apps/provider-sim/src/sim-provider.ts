import type { Faults } from './faults';
import type { PaymentRequest } from './payment-request';
import { paymentView } from './payment-view';
import { type Random, randomBetween, seededRandom } from './random';
import type { SimSettings } from './sim-settings';
import { type SimPayment, SimPayments, type SubmitOutcome } from './sim-payments';
import { WebhookSender } from './webhook-sender';

/** A `return` fault sends the payment back this long after it executed, at random within the bounds. */
export const RETURN_DELAY_MS_MIN = 50;
export const RETURN_DELAY_MS_MAX = 500;

export interface SubmitResult {
  outcome: SubmitOutcome | { kind: 'unavailable' };
  /** timeout_after_execute: whatever happened, the client gets no answer. */
  withholdAnswer: boolean;
}

/** The honest in-memory provider: its book of payments, the faults it plays, its timers and its webhooks. */
export class SimProvider {
  readonly payments: SimPayments;
  readonly webhooks: WebhookSender;
  private readonly random: Random;
  private readonly timers = new Set<NodeJS.Timeout>();
  private currentFaults: Faults;

  constructor(
    private readonly settings: SimSettings,
    log: (message: string) => void,
  ) {
    this.random = seededRandom(settings.seed);
    this.currentFaults = settings.faults;
    const target = settings.webhookUrl === null ? null : { url: settings.webhookUrl, secret: settings.webhookSecret };
    this.webhooks = new WebhookSender(target, this.random, log);
    this.payments = new SimPayments(
      () => new Date(),
      (type, payment) => this.webhooks.send(type, paymentView(payment)),
    );
  }

  get faults(): Faults {
    return this.currentFaults;
  }

  set faults(faults: Faults) {
    this.currentFaults = faults;
  }

  /**
   * One submit request. Faults are drawn in a fixed order, so a seeded run repeats: error_before_execute
   * (503, nothing stored), reject and return (first submits only: a known key has its fate already),
   * timeout_after_execute (the request is processed, its answer withheld).
   */
  submit(key: string, request: PaymentRequest): SubmitResult {
    const faults = this.currentFaults;
    if (this.draw(faults.errorBeforeExecute)) return { outcome: { kind: 'unavailable' }, withholdAnswer: false };
    const reject = this.draw(faults.reject);
    const returns = this.draw(faults.return);
    const withholdAnswer = this.draw(faults.timeoutAfterExecute);
    const pending = this.settings.executeDelayMs > 0;
    const outcome = this.payments.submit(key, request, { reject, pending });
    if (outcome.kind === 'accepted' && !outcome.repeat) this.afterAccept(outcome.payment, pending, returns);
    return { outcome, withholdAnswer };
  }

  /** A status request fails as often as a submit does before executing. */
  statusUnavailable(): boolean {
    return this.draw(this.currentFaults.errorBeforeExecute);
  }

  find(key: string): SimPayment | undefined {
    return this.payments.find(key);
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.webhooks.close();
  }

  private afterAccept(payment: SimPayment, pending: boolean, returns: boolean): void {
    const key = payment.idempotencyKey;
    const scheduleReturn = () => {
      if (!returns) return;
      const delayMs = randomBetween(this.random, RETURN_DELAY_MS_MIN, RETURN_DELAY_MS_MAX);
      this.later(delayMs, () =>
        this.payments.returnPayment(key, 'simulated return: the beneficiary account is closed'),
      );
    };
    if (!pending) {
      scheduleReturn();
      return;
    }
    this.later(this.settings.executeDelayMs, () => {
      if (this.payments.execute(key)) scheduleReturn();
    });
  }

  private later(delayMs: number, action: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      action();
    }, delayMs);
    this.timers.add(timer);
  }

  /** Always draws, also for a probability of 0, so that one fault's setting does not shift the others' draws. */
  private draw(probability: number): boolean {
    return this.random() < probability;
  }
}
