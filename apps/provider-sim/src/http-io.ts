import { timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A request body larger than this is answered 413: the contract's bodies are well under 2 KiB. */
export const REQUEST_BODY_BYTES_MAX = 64 * 1024;
/** Report lines written per chunk: a large report streams with flat memory per write. */
const LINES_PER_WRITE = 1000;

export class BodyTooLarge extends Error {
  override readonly name = 'BodyTooLarge';
}

/** The whole request body, or BodyTooLarge past `bytesMax` (from Content-Length or counted as it comes). */
export async function readBody(request: IncomingMessage, bytesMax = REQUEST_BODY_BYTES_MAX): Promise<Buffer> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > bytesMax) throw new BodyTooLarge(`the body is more than ${bytesMax} bytes`);
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > bytesMax) throw new BodyTooLarge(`the body is more than ${bytesMax} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

export function sendError(response: ServerResponse, status: number, code: string, message: string): void {
  sendJson(response, status, { error: { code, message } });
}

/** Writes lines as one text/csv body, waiting for the socket to drain between chunks. */
export async function sendCsvLines(response: ServerResponse, lines: readonly string[]): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' });
  for (let start = 0; start < lines.length; start += LINES_PER_WRITE) {
    const chunk = `${lines.slice(start, start + LINES_PER_WRITE).join('\r\n')}\r\n`;
    if (!response.write(chunk)) await Promise.race([once(response, 'drain'), once(response, 'close')]);
    if (response.destroyed) return; // the client went away
  }
  response.end();
}

/** `Authorization: Bearer <secret>`, compared in constant time. */
export function hasBearer(request: IncomingMessage, secret: string): boolean {
  const match = /^Bearer (.+)$/.exec(request.headers.authorization ?? '');
  if (match === null) return false;
  const given = Buffer.from(match[1]!);
  const expected = Buffer.from(secret);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** JSON of a body, or undefined when it is not JSON. */
export function parseJsonBody(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

export function delay(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}
