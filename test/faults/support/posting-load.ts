import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Answer } from '../../support/http-json';
import type { SeededRandom } from './seeded-random';

export type OperationKind = 'transfer' | 'batch' | 'hold' | 'capture' | 'void' | 'reverse';

/** One request as first sent; a retry sends exactly this again (same key, same body). */
export interface Operation {
  kind: OperationKind;
  path: string;
  body: unknown;
  idempotencyKey: string;
}

export type Send = (operation: Operation) => Promise<Answer>;

/** Items of a batch this load sends, at most. */
export const LOAD_BATCH_ITEMS_MAX = 20;
const RETRY_ATTEMPTS_MAX = 40;
const RETRY_PAUSE_MS = 250;
const UNANSWERED_PAUSE_MS = 200;
/**
 * What the load sends, by kind: `transfers` single transfers only, `batches` batches only, `holds` mostly
 * holds and their captures, voids and reversals (the group commit tests), `mixed` every kind.
 */
export type LoadMix = 'mixed' | 'transfers' | 'batches' | 'holds';

/** Of `mixed` and `holds`: the draws below each bound are resolutions, reversals, holds, batches; above, transfers. */
const SHARES: Record<'mixed' | 'holds', { resolve: number; reverse: number; hold: number; batch: number }> = {
  mixed: { resolve: 0.12, reverse: 0.2, hold: 0.35, batch: 0.5 },
  holds: { resolve: 0.45, reverse: 0.55, hold: 0.85, batch: 0.85 },
};

/** Answers after which the same request may simply be sent again (the API's retryable contract). */
const RETRYABLE_STATUSES = new Set([409, 429, 502, 503, 504]);

function transfer(debit: string, credit: string, amountMinor: number) {
  return {
    entries: [
      { account: debit, direction: 'debit', amount: String(amountMinor), currency: 'USD' },
      { account: credit, direction: 'credit', amount: String(amountMinor), currency: 'USD' },
    ],
  };
}

/**
 * Concurrent clients posting single transfers, batches, holds (then captured or voided) and reversals,
 * each with its own Idempotency-Key. Every acknowledged (2xx) transaction is recorded; a request without
 * an answer, or with a retryable one (5xx, 409 in progress), is kept to be retried with the same key.
 */
export class PostingLoad {
  /** Transaction id -> the kind of request that acknowledged it. */
  readonly acknowledged = new Map<string, OperationKind>();
  readonly unacknowledged: Operation[] = [];
  /** Answers and failures seen, by status and code ("201", "503 UNAVAILABLE", "no answer: ..."). */
  readonly seen = new Map<string, number>();
  /** Deterministic refusals (4xx other than in progress): none is expected in this load. */
  readonly refused: { operation: Operation; answer: Answer }[] = [];
  /** Bodies of 500 answers: a defect whenever one appears. */
  readonly internalErrors: unknown[] = [];
  /** 503 answers that do not say when to retry (the contract: a stable code and Retry-After). */
  readonly unavailableWithoutRetryAfter: unknown[] = [];
  private readonly openHolds: string[] = [];
  private readonly reversible: string[] = [];
  sent = 0;

  constructor(
    private readonly wallets: readonly string[],
    private readonly send: Send,
    private readonly mix: LoadMix = 'mixed',
  ) {}

  /** One client: operations until `keepGoing` says stop. */
  async runClient(random: SeededRandom, keepGoing: () => boolean): Promise<void> {
    while (keepGoing()) {
      const operation = this.nextOperation(random);
      if ((await this.attempt(operation)) === 'unacknowledged') {
        this.unacknowledged.push(operation);
        // The API is probably down (being restarted): do not spin.
        await sleep(UNANSWERED_PAUSE_MS);
      }
    }
  }

  /** Sends every unacknowledged request again, same key and body, until each is answered for good. */
  async retryUnacknowledged(): Promise<{ retried: number; stillUnacknowledged: Operation[] }> {
    const pending = this.unacknowledged.splice(0);
    const stillUnacknowledged: Operation[] = [];
    for (const operation of pending) {
      const answered = await sendUntilAnswered(async () => (await this.attempt(operation)) !== 'unacknowledged');
      if (!answered) stillUnacknowledged.push(operation);
    }
    return { retried: pending.length, stillUnacknowledged };
  }

  private nextOperation(random: SeededRandom): Operation {
    const roll = random.next();
    const key = randomUUID();
    const amount = () => random.between(1, 500);
    const pair = () => {
      const debit = random.pick(this.wallets);
      const others = this.wallets.filter((wallet) => wallet !== debit);
      return [debit, random.pick(others)] as const;
    };
    const batch = (): Operation => {
      const transactions = Array.from({ length: random.between(2, LOAD_BATCH_ITEMS_MAX) }, () =>
        transfer(...pair(), amount()),
      );
      return { kind: 'batch', path: '/v1/transactions/batch', body: { transactions }, idempotencyKey: key };
    };
    if (this.mix === 'batches') return batch();
    if (this.mix === 'transfers') {
      return { kind: 'transfer', path: '/v1/transactions', body: transfer(...pair(), amount()), idempotencyKey: key };
    }
    const shares = SHARES[this.mix];
    if (roll < shares.resolve && this.openHolds.length > 0) {
      const hold = this.openHolds.splice(random.between(0, this.openHolds.length - 1), 1)[0]!;
      const kind = random.next() < 0.5 ? 'capture' : 'void';
      return {
        kind,
        path: `/v1/transactions/${hold}/${kind === 'capture' ? 'post' : 'void'}`,
        body: {},
        idempotencyKey: key,
      };
    }
    if (roll < shares.reverse && this.reversible.length > 0) {
      const original = this.reversible.splice(random.between(0, this.reversible.length - 1), 1)[0]!;
      return {
        kind: 'reverse',
        path: `/v1/transactions/${original}/reverse`,
        body: { description: 'fault test reversal' },
        idempotencyKey: key,
      };
    }
    if (roll < shares.hold) {
      const [debit, credit] = pair();
      const body = {
        ...transfer(debit, credit, amount()),
        pending: { expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
      };
      return { kind: 'hold', path: '/v1/transactions', body, idempotencyKey: key };
    }
    if (roll < shares.batch) return batch();
    return { kind: 'transfer', path: '/v1/transactions', body: transfer(...pair(), amount()), idempotencyKey: key };
  }

  private count(label: string): void {
    this.seen.set(label, (this.seen.get(label) ?? 0) + 1);
  }

  private async attempt(operation: Operation): Promise<'acknowledged' | 'refused' | 'unacknowledged'> {
    this.sent++;
    let answer: Answer;
    try {
      answer = await this.send(operation);
    } catch (error) {
      this.count(`no answer: ${describeFailure(error)}`);
      return 'unacknowledged';
    }
    const code = answer.body?.error?.code;
    // A replay after a crash: the first attempt committed, but its answer was lost with the process.
    const replayed = answer.headers.get('idempotent-replayed') === 'true' ? ' replayed' : '';
    this.count(code === undefined ? `${answer.status}${replayed}` : `${answer.status} ${code}`);
    if (answer.status >= 200 && answer.status < 300) {
      this.acknowledge(operation, answer.body);
      return 'acknowledged';
    }
    if (answer.status === 500) this.internalErrors.push(answer.body);
    if (answer.status === 503 && (code !== 'UNAVAILABLE' || answer.headers.get('retry-after') === null))
      this.unavailableWithoutRetryAfter.push(answer.body);
    if (isRetryable(answer.status, code)) return 'unacknowledged';
    this.refused.push({ operation, answer });
    return 'refused';
  }

  private acknowledge(operation: Operation, body: any): void {
    if (operation.kind === 'batch') {
      for (const result of body.results) {
        if (result.status === 'error')
          this.refused.push({ operation, answer: { status: 201, headers: new Headers(), body: result } });
        else this.acknowledged.set(result.transaction.id, 'batch');
      }
      return;
    }
    this.acknowledged.set(body.id, operation.kind);
    if (operation.kind === 'hold') this.openHolds.push(body.id);
    if (operation.kind === 'transfer') this.reversible.push(body.id);
  }
}

/**
 * Sends a request (same key, same body each time) until it is answered for good, RETRY_PAUSE_MS apart and at
 * most RETRY_ATTEMPTS_MAX times; `send` says whether it was. Whether it was answered in the end.
 */
export async function sendUntilAnswered(send: () => Promise<boolean>): Promise<boolean> {
  for (let attempt = 1; attempt < RETRY_ATTEMPTS_MAX; attempt++) {
    if (await send()) return true;
    await sleep(RETRY_PAUSE_MS);
  }
  return send();
}

/** Whether an answer lets the same request be sent again (a 5xx, 429, its key still in progress). */
export function isRetryable(status: number, code: string | undefined): boolean {
  if (status === 409) return code === 'IDEMPOTENCY_KEY_IN_PROGRESS';
  return status >= 500 || RETRYABLE_STATUSES.has(status);
}

/** "ECONNREFUSED", "other side closed", "timeout": the cause fetch wraps. */
export function describeFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.name : String(error));
}
