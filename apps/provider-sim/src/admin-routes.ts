import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { faultNames, faultsSchema } from './faults';
import { parseJsonBody, readBody, sendError, sendJson } from './http-io';
import { paymentView } from './payment-view';
import type { SimProvider } from './sim-provider';

/** Keys listed by GET /__sim/executions at most; `?key=` asks for one. */
export const EXECUTIONS_LISTED_MAX = 100_000;
/** Payments listed by GET /__sim/payments at most (`?limit=`, default 100). */
export const PAYMENTS_LISTED_MAX = 1000;
const PAYMENTS_LISTED_DEFAULT = 100;

const webhookTargetSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/ }).nullable(),
  secret: z.string().min(1).max(255).optional(),
});

/** The /__sim endpoints (no auth: a test harness's, never a real provider's). Answers false for no route. */
export async function adminRoute(
  provider: SimProvider,
  request: IncomingMessage,
  url: URL,
  response: ServerResponse,
  defaultWebhookSecret: string,
): Promise<boolean> {
  const route = `${request.method} ${url.pathname}`;
  if (route === 'GET /__sim/executions') {
    const key = url.searchParams.get('key');
    if (key !== null) sendJson(response, 200, { executions: { [key]: provider.payments.executionCount(key) } });
    else sendJson(response, 200, provider.payments.executionCounts(EXECUTIONS_LISTED_MAX));
  } else if (route === 'GET /__sim/faults') {
    sendJson(response, 200, faultNames(provider.faults));
  } else if (route === 'PUT /__sim/faults') {
    const parsed = faultsSchema.safeParse(parseJsonBody(await readBody(request)));
    if (!parsed.success) return badRequest(response, parsed.error.message);
    provider.faults = parsed.data;
    sendJson(response, 200, faultNames(provider.faults));
  } else if (route === 'PUT /__sim/webhook-url') {
    const parsed = webhookTargetSchema.safeParse(parseJsonBody(await readBody(request)));
    if (!parsed.success) return badRequest(response, parsed.error.message);
    const { url: target, secret = defaultWebhookSecret } = parsed.data;
    provider.webhooks.setTarget(target === null ? null : { url: target, secret });
    sendJson(response, 200, { url: target });
  } else if (route === 'GET /__sim/webhooks') {
    sendJson(response, 200, provider.webhooks.stats());
  } else if (route === 'GET /__sim/payments') {
    const limit = Number(url.searchParams.get('limit') ?? PAYMENTS_LISTED_DEFAULT);
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > PAYMENTS_LISTED_MAX) {
      return badRequest(response, `limit must be 1 to ${PAYMENTS_LISTED_MAX}`);
    }
    const payments = [];
    for (const payment of provider.payments.values()) {
      if (payments.length === limit) break;
      payments.push({ ...paymentView(payment), direction: payment.request.direction });
    }
    sendJson(response, 200, { total: provider.payments.size, payments });
  } else {
    return false;
  }
  return true;
}

function badRequest(response: ServerResponse, message: string): true {
  sendError(response, 400, 'VALIDATION_FAILED', message);
  return true;
}
