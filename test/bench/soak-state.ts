import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { type HttpAnswer, type JsonRequest, type UploadRequest, errorLabel } from './http-client';
import type { SoakRecorder } from './soak-recorder';
import { SOAK_CURRENCIES, type SoakCurrency, type SoakWorld } from './soak-setup';

// What the soak's clients share: the world, the recorder, and what the API acknowledged (every
// transaction it answered 201 for, which the invariants look up afterwards), plus bounded pools of
// recent transactions that later operations act on (reverse, resolve, retry, read).

/**
 * A request that got no answer (a reset keep-alive socket on a machine too busy to close idle ones in
 * time) is sent again with the same Idempotency-Key, as the API asks of its clients: the outcome is
 * unknown, never a failure. Counted by this label; only a request that gets no answer after all
 * attempts is a failure.
 */
export const LOST_ANSWER = 'no answer, sent again with the same key';
/** The retry came while the first attempt was still running: it is sent again a little later. */
const KEY_IN_PROGRESS = '409 IDEMPOTENCY_KEY_IN_PROGRESS';
const ATTEMPTS_MAX = 5;
const RETRY_PAUSE_MS = 100;

/** Each pool keeps this many of the newest entries; an operation picks one at random. */
const POOL_SIZE_MAX = 500;
export const TRANSFER_AMOUNT_MAX_MINOR = 2_000;

export interface Transfer {
  externalRef: string;
  entries: { account: string; direction: 'debit' | 'credit'; amount: string; currency: string }[];
  pending?: { expiresAt: string };
}

export interface SentPosting {
  idempotencyKey: string;
  body: Transfer;
  transactionId: string;
}

export class BoundedPool<T> {
  private readonly items: T[] = [];

  add(item: T): void {
    this.items.push(item);
    if (this.items.length > POOL_SIZE_MAX) this.items.shift();
  }

  pick(): T | undefined {
    return this.items.length === 0 ? undefined : this.items[Math.floor(Math.random() * this.items.length)];
  }

  /** Picks one and removes it, so no two clients act on it on purpose (races are their own operations). */
  take(): T | undefined {
    if (this.items.length === 0) return undefined;
    return this.items.splice(Math.floor(Math.random() * this.items.length), 1)[0];
  }
}

export const randomInteger = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));

export class SoakState {
  /** Transaction id -> its externalRef (null for records without one: hold resolutions, reversals). */
  readonly acknowledged = new Map<string, string | null>();
  readonly postings = new BoundedPool<SentPosting>();
  readonly openHolds = new BoundedPool<{ id: string; amountMinor: bigint }>();
  reconcileInFlight = false;
  private sequence = 0;

  constructor(
    readonly world: SoakWorld,
    readonly recorder: SoakRecorder,
  ) {}

  nextReference(prefix: string): string {
    return `${prefix}-${++this.sequence}`;
  }

  acknowledge(transaction: { id: string; externalRef?: string | null }): void {
    if (this.acknowledged.has(transaction.id))
      this.recorder.violation(`transaction ${transaction.id} acknowledged twice`);
    this.acknowledged.set(transaction.id, transaction.externalRef ?? null);
  }

  randomWallet(currency: SoakCurrency, except?: string): string {
    const wallets = this.world.wallets[currency].filter((code) => code !== except);
    return wallets[Math.floor(Math.random() * wallets.length)]!;
  }

  /** A transfer between two distinct wallets of one currency (USD three times in four). */
  transfer(amountMinor: bigint = BigInt(randomInteger(1, TRANSFER_AMOUNT_MAX_MINOR))): Transfer {
    const currency: SoakCurrency = Math.random() < 0.75 ? SOAK_CURRENCIES[0] : SOAK_CURRENCIES[1];
    const from = this.randomWallet(currency);
    const to = this.randomWallet(currency, from);
    const amount = amountMinor.toString();
    return {
      externalRef: this.nextReference('soak'),
      entries: [
        { account: from, direction: 'debit', amount, currency },
        { account: to, direction: 'credit', amount, currency },
      ],
    };
  }

  /** One request, timed (retries included) and recorded; undefined when it got no answer at all. */
  async call(
    operation: string,
    expected: readonly string[],
    request: JsonRequest | UploadRequest,
  ): Promise<HttpAnswer | undefined> {
    const began = performance.now();
    for (let attempt = 1; ; attempt++) {
      try {
        const answer =
          'fields' in request ? await this.world.http.upload(request) : await this.world.http.request(request);
        if (attempt > 1 && attempt < ATTEMPTS_MAX && errorLabel(answer) === KEY_IN_PROGRESS) {
          this.recorder.item(operation, [KEY_IN_PROGRESS], KEY_IN_PROGRESS);
          await new Promise((resolvePause) => setTimeout(resolvePause, RETRY_PAUSE_MS));
          continue;
        }
        this.recorder.answer(operation, expected, answer, performance.now() - began);
        return answer;
      } catch (error) {
        if (attempt === ATTEMPTS_MAX) {
          this.recorder.exception(operation, error, performance.now() - began);
          return undefined;
        }
        this.recorder.item(operation, [LOST_ANSWER], LOST_ANSWER);
        await new Promise((resolvePause) => setTimeout(resolvePause, RETRY_PAUSE_MS));
      }
    }
  }

  post(
    operation: string,
    expected: readonly string[],
    path: string,
    body: unknown,
    bearer = this.world.keys.poster,
    idempotencyKey: string = randomUUID(),
  ): Promise<HttpAnswer | undefined> {
    return this.call(operation, expected, { method: 'POST', path, bearer, idempotencyKey, body });
  }

  get(operation: string, path: string, bearer = this.world.keys.poster): Promise<HttpAnswer | undefined> {
    return this.call(operation, ['200'], { method: 'GET', path, bearer });
  }
}
