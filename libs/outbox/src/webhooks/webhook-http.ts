import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { guardedLookup } from './webhook-target';

export interface WebhookResponse {
  status: number;
}

export interface WebhookRequestOptions {
  /** From the start until the TCP connection is up (name resolution included). */
  connectTimeoutMs: number;
  /** The whole exchange, from the start until the answer's status line and its (capped) body are in. */
  responseTimeoutMs: number;
  allowPrivate: boolean;
}

/** The part of an endpoint's answer kept for the delivery log. */
const RESPONSE_BYTES_MAX = 4096;

/**
 * POSTs one signed body. Redirects are not followed (a 3xx is a failure), the connection is made
 * only to an allowed address (see `guardedLookup`). Two limits: a short one on connecting, so an
 * unreachable host gives its slot back soon, and a longer one on the whole exchange.
 */
export function postWebhook(
  url: URL,
  body: string,
  headers: Record<string, string>,
  options: WebhookRequestOptions,
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
        timeout: options.responseTimeoutMs,
        signal: AbortSignal.timeout(options.responseTimeoutMs),
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
    const connectTimer = setTimeout(
      () => request.destroy(new Error(`no connection within ${options.connectTimeoutMs} ms`)),
      options.connectTimeoutMs,
    );
    request.on('socket', (socket: Socket) => {
      if (!socket.connecting) clearTimeout(connectTimer);
      else socket.once('connect', () => clearTimeout(connectTimer));
    });
    request.on('close', () => clearTimeout(connectTimer));
    request.on('timeout', () => request.destroy(new Error(`no answer within ${options.responseTimeoutMs} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}
