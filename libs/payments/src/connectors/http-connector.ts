import assert from 'node:assert/strict';
import { verifySignature } from '@ledger/outbox';
import { evidenceBody, parseJson, readBoundedText } from './bounded-response';
import type { ConnectorSettings, PaymentConnector, ProviderAnswer, SubmitRequest, WebhookCheck } from './connector';
import { readError, readNotification, readPayment, WEBHOOK_BODY_BYTES_MAX } from './provider-wire';

type Exchange =
  | { kind: 'answered'; httpStatus: number; text: string; truncated: boolean; elapsedMs: number }
  | { kind: 'failed'; reason: string; elapsedMs: number };

type Answered = Extract<Exchange, { kind: 'answered' }>;

/**
 * 4xx answers to a submit that do not settle it: 401/403 mean our credentials are wrong (configuration, not
 * the payment), 408/425/429 ask to try later, 409 that the key is in flight; IDEMPOTENCY_KEY_REUSED means a
 * payment exists under the key (perhaps executed), so reading it as "refused" could lose money moved.
 */
const UNSETTLED_STATUSES: ReadonlySet<number> = new Set([401, 403, 408, 409, 425, 429]);
const UNSETTLED_CODES: ReadonlySet<string> = new Set(['IDEMPOTENCY_KEY_REUSED']);

/** The HTTP+JSON connector of docs/connector-contract.md. Never throws for what the provider answers. */
export class HttpConnector implements PaymentConnector {
  private readonly baseUrl: string;

  constructor(private readonly settings: ConnectorSettings) {
    assert.ok(/^https?:\/\//.test(settings.baseUrl), 'baseUrl must be an http(s) URL');
    assert.ok(Number.isSafeInteger(settings.requestTimeoutMs) && settings.requestTimeoutMs > 0, 'requestTimeoutMs');
    this.baseUrl = settings.baseUrl.replace(/\/+$/, '');
  }

  async submit(request: SubmitRequest): Promise<ProviderAnswer> {
    assert.ok(request.amountMinor > 0n, 'a payment amount is positive');
    const body = JSON.stringify({
      reference: request.reference,
      direction: request.direction,
      amount: request.amountMinor.toString(),
      currency: request.currency,
      counterparty: request.counterparty,
      description: request.description,
    });
    const exchange = await this.exchange('POST', '/v1/payments', body, request.idempotencyKey);
    if (exchange.kind === 'failed') return unknown(exchange.reason, exchange);
    return submitAnswer(exchange, request.idempotencyKey);
  }

  async status(idempotencyKey: string): Promise<ProviderAnswer> {
    const path = `/v1/payments?idempotencyKey=${encodeURIComponent(idempotencyKey)}`;
    const exchange = await this.exchange('GET', path, undefined, undefined);
    if (exchange.kind === 'failed') return unknown(exchange.reason, exchange);
    return statusAnswer(exchange, idempotencyKey);
  }

  verifyWebhook(signatureHeader: string | undefined, rawBody: Buffer, nowSeconds: number): WebhookCheck {
    if (signatureHeader === undefined || rawBody.length > WEBHOOK_BODY_BYTES_MAX) {
      return { ok: false, reason: signatureHeader === undefined ? 'bad_signature' : 'unreadable' };
    }
    const text = rawBody.toString('utf8');
    if (!verifySignature(signatureHeader, text, this.settings.webhookSecret, nowSeconds)) {
      return { ok: false, reason: 'bad_signature' };
    }
    const notification = readNotification(parseJson(text));
    return notification === undefined ? { ok: false, reason: 'unreadable' } : { ok: true, notification };
  }

  private async exchange(
    method: 'GET' | 'POST',
    path: string,
    body: string | undefined,
    idempotencyKey: string | undefined,
  ): Promise<Exchange> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.settings.secret}`,
      accept: 'application/json',
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    const started = performance.now();
    const elapsedMs = () => Math.round(performance.now() - started);
    try {
      // One signal for the whole exchange: a provider that answers its headers and then stalls is a timeout too.
      const signal = AbortSignal.timeout(this.settings.requestTimeoutMs);
      // A redirect is not part of the contract; following it could send the payment somewhere else.
      const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body, signal, redirect: 'manual' });
      const { text, truncated } = await readBoundedText(response);
      return { kind: 'answered', httpStatus: response.status, text, truncated, elapsedMs: elapsedMs() };
    } catch (error) {
      return { kind: 'failed', reason: failureReason(error, this.settings.requestTimeoutMs), elapsedMs: elapsedMs() };
    }
  }
}

function failureReason(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `no answer within ${timeoutMs} ms: the payment may or may not have been executed`;
  }
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === 'string' ? `${cause.code} ` : '';
  const message = typeof cause?.message === 'string' ? cause.message : String(error);
  return `request failed (${code}${message}): the payment may or may not have been executed`;
}

function detailOf(exchange: Exchange): Record<string, unknown> {
  if (exchange.kind === 'failed') return { httpStatus: null, error: exchange.reason, elapsedMs: exchange.elapsedMs };
  const detail: Record<string, unknown> = {
    httpStatus: exchange.httpStatus,
    body: evidenceBody(exchange.text),
    elapsedMs: exchange.elapsedMs,
  };
  if (exchange.truncated) detail.truncated = true;
  return detail;
}

function unknown(reason: string, exchange: Exchange): ProviderAnswer {
  return { kind: 'unknown', reason, detail: detailOf(exchange) };
}

/** The answers both calls read alike: a payment, a credentials problem, a provider error, a redirect. */
function commonAnswer(exchange: Answered, idempotencyKey: string): ProviderAnswer | undefined {
  const status = exchange.httpStatus;
  if (status >= 200 && status < 300) {
    const payment = exchange.truncated ? undefined : readPayment(parseJson(exchange.text));
    if (payment === undefined) return unknown(`HTTP ${status} with a body that is not a payment`, exchange);
    if (payment.idempotencyKey !== idempotencyKey) {
      return unknown(`HTTP ${status} names another idempotency key (${payment.idempotencyKey})`, exchange);
    }
    return { kind: 'payment', payment, detail: detailOf(exchange) };
  }
  const error = readError(parseJson(exchange.text));
  const named = error === undefined ? `HTTP ${status}` : `HTTP ${status} ${error.code}: ${error.message}`;
  if (status === 401 || status === 403) {
    return unknown(`${named}: the provider refused our credentials; check the connector's secret`, exchange);
  }
  if (status === 429) return unknown(`${named}: rate limited by the provider; try again later`, exchange);
  if (status >= 500) return unknown(`${named}: the payment may or may not have been executed`, exchange);
  if (status < 400) return unknown(`${named}: not an answer of the contract`, exchange);
  return undefined;
}

function submitAnswer(exchange: Answered, idempotencyKey: string): ProviderAnswer {
  const common = commonAnswer(exchange, idempotencyKey);
  if (common !== undefined) return common;
  const error = readError(parseJson(exchange.text));
  // A 4xx without the provider's error body came from something in between (a proxy), not from the provider.
  if (error === undefined) return unknown(`HTTP ${exchange.httpStatus} without the provider's error body`, exchange);
  const named = `HTTP ${exchange.httpStatus} ${error.code}: ${error.message}`;
  if (UNSETTLED_STATUSES.has(exchange.httpStatus) || UNSETTLED_CODES.has(error.code)) {
    return unknown(`${named}: does not settle the payment; ask its status`, exchange);
  }
  return { kind: 'refused', reason: `${error.code}: ${error.message}`, detail: detailOf(exchange) };
}

function statusAnswer(exchange: Answered, idempotencyKey: string): ProviderAnswer {
  const common = commonAnswer(exchange, idempotencyKey);
  if (common !== undefined) return common;
  const error = readError(parseJson(exchange.text));
  // Only the provider's own NOT_FOUND says "never received"; a bare 404 may be a wrong base URL.
  if (exchange.httpStatus === 404 && error?.code === 'NOT_FOUND')
    return { kind: 'not_found', detail: detailOf(exchange) };
  const named = error === undefined ? `HTTP ${exchange.httpStatus}` : `HTTP ${exchange.httpStatus} ${error.code}`;
  return unknown(`${named}: not an answer to a status request`, exchange);
}
