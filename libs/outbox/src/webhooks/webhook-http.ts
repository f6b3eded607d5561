import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { guardedLookup } from './webhook-target';

export interface WebhookResponse {
  status: number;
}

/** The part of an endpoint's answer kept for the delivery log. */
const RESPONSE_BYTES_MAX = 4096;

/**
 * POSTs one signed body. Redirects are not followed (a 3xx is a failure), the connection is made
 * only to an allowed address (see `guardedLookup`), and the whole exchange has one timeout.
 */
export function postWebhook(
  url: URL,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<WebhookResponse> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body).toString(),
          'user-agent': 'ledger-webhooks/1',
        },
        lookup: guardedLookup(options.allowPrivate),
        timeout: options.timeoutMs,
        signal: AbortSignal.timeout(options.timeoutMs),
      },
      (response) => {
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > RESPONSE_BYTES_MAX) response.destroy();
        });
        response.on('close', () => resolve({ status: response.statusCode ?? 0 }));
        response.on('error', () => resolve({ status: response.statusCode ?? 0 }));
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}
