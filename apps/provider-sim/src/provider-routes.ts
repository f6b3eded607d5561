import type { IncomingMessage, ServerResponse } from 'node:http';
import { IDEMPOTENCY_KEY_PATTERN, paymentRequestSchema, toPaymentRequest } from './payment-request';
import { paymentView } from './payment-view';
import { delay, parseJsonBody, readBody, sendCsvLines, sendError, sendJson } from './http-io';
import { readReportRange, settlementLines } from './settlement-report';
import type { SimProvider } from './sim-provider';

/** What a request whose answer is withheld needs: the server keeps the socket and lets it go on close. */
export type Withhold = (response: ServerResponse) => void;

function validationMessage(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join('.') || 'body'}: ${issue.message}`)
    .join('; ');
}

/** POST /v1/payments: executes each idempotency key at most once, faults as configured. */
export async function submitPayment(
  provider: SimProvider,
  request: IncomingMessage,
  response: ServerResponse,
  withhold: Withhold,
): Promise<void> {
  const body = await readBody(request);
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(key)) {
    sendError(response, 400, 'VALIDATION_FAILED', 'Idempotency-Key must be 1-255 printable characters');
    return;
  }
  const parsed = paymentRequestSchema.safeParse(parseJsonBody(body));
  if (!parsed.success) {
    sendError(response, 400, 'VALIDATION_FAILED', validationMessage(parsed.error.issues));
    return;
  }
  const { outcome, withholdAnswer } = provider.submit(key, toPaymentRequest(parsed.data));
  if (withholdAnswer) {
    withhold(response);
    return;
  }
  await delay(provider.faults.latencyMs);
  if (outcome.kind === 'unavailable') {
    sendError(response, 503, 'UNAVAILABLE', 'simulated outage before execution; nothing was executed');
  } else if (outcome.kind === 'full') {
    sendError(response, 503, 'CAPACITY', 'the simulator holds as many payments as it keeps');
  } else if (outcome.kind === 'key_reused') {
    const message = `idempotency key was used for another request (payment ${outcome.payment.id})`;
    sendError(response, 422, 'IDEMPOTENCY_KEY_REUSED', message);
  } else if (outcome.kind === 'rejected') {
    // A repeat of a rejected key answers as the first request was answered.
    sendError(response, 422, 'REJECTED', outcome.payment.reason ?? 'rejected');
  } else {
    sendJson(response, outcome.repeat ? 200 : 201, paymentView(outcome.payment));
  }
}

/** GET /v1/payments?idempotencyKey=: the payment under a key, or 404 NOT_FOUND when it never came. */
export async function paymentStatus(provider: SimProvider, url: URL, response: ServerResponse): Promise<void> {
  const key = url.searchParams.get('idempotencyKey');
  const unavailable = provider.statusUnavailable();
  await delay(provider.faults.latencyMs);
  if (key === null || !IDEMPOTENCY_KEY_PATTERN.test(key)) {
    sendError(response, 400, 'VALIDATION_FAILED', 'idempotencyKey must be 1-255 printable characters');
  } else if (unavailable) {
    sendError(response, 503, 'UNAVAILABLE', 'simulated outage');
  } else {
    const payment = provider.find(key);
    if (payment === undefined) sendError(response, 404, 'NOT_FOUND', 'no payment under this idempotency key');
    else sendJson(response, 200, paymentView(payment));
  }
}

/** GET /v1/reports/settlement?from=&to=: executions and returns of the range as bank CSV. */
export async function settlementReport(provider: SimProvider, url: URL, response: ServerResponse): Promise<void> {
  const range = readReportRange(url.searchParams.get('from'), url.searchParams.get('to'));
  await delay(provider.faults.latencyMs);
  if (typeof range === 'string') {
    sendError(response, 400, 'VALIDATION_FAILED', range);
    return;
  }
  await sendCsvLines(response, settlementLines(provider.payments.values(), range));
}
