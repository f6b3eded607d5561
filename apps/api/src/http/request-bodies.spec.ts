import fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toHttpError } from './error-translation';
import { INBOUND_PATH, STATEMENT_UPLOAD_PATH, readRequestBodies } from './request-bodies';

// A bare Fastify with the API's body readers, answering what each route received (no Nest, no database).
let server: FastifyInstance;

beforeAll(async () => {
  server = fastify();
  readRequestBodies(server, { jsonBytesMax: 1000, signedBytesMax: 100 });
  server.setErrorHandler((error, _request, reply) => {
    const translated = toHttpError(error);
    const status = (error as { statusCode?: number }).statusCode ?? translated.status;
    void reply.status(status).send(translated.body);
  });
  server.post('/v1/transactions', async (request) => ({ body: request.body ?? null }));
  server.post(INBOUND_PATH, async (request) => ({
    body: request.body ?? null,
    raw: (request as { rawBody?: Buffer }).rawBody?.toString('utf8') ?? null,
  }));
  server.post(STATEMENT_UPLOAD_PATH, async (request) => ({ read: request.raw.readableEnded }));
  await server.ready();
});

afterAll(() => server.close());

const post = (url: string, payload: string | Buffer, headers: Record<string, string> = {}) =>
  server.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json', ...headers } });

describe('readRequestBodies', () => {
  it('parses a JSON object, and takes an empty body as {}', async () => {
    expect((await post('/v1/transactions', '{"a":1}')).json()).toEqual({ body: { a: 1 } });
    expect((await post('/v1/transactions', '')).json()).toEqual({ body: {} });
  });

  it('refuses a body that is no JSON object or array, has a key twice, or is not UTF-8, naming the field', async () => {
    for (const payload of ['"text"', '12', '{"a":', '{"a":1,"a":2}']) {
      const answer = await post('/v1/transactions', payload);
      expect(answer.json().error.code, payload).toBe('VALIDATION_FAILED');
    }
    const latin1 = Buffer.concat([Buffer.from('{"description":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    expect((await post('/v1/transactions', latin1)).json().error.details.fields[0].path).toBe('description');
  });

  it('answers 415 to another charset, a compressed body or another media type', async () => {
    const charset = await post('/v1/transactions', '{}', { 'content-type': 'application/json; charset=latin1' });
    expect([charset.statusCode, charset.json().error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const gzip = await post('/v1/transactions', '{}', { 'content-encoding': 'gzip' });
    expect(gzip.statusCode).toBe(415);
    expect((await post('/v1/transactions', 'a=1', { 'content-type': 'text/plain' })).statusCode).toBe(415);
    expect(
      (await post('/v1/transactions', '{}', { 'content-type': 'application/json; charset=UTF-8' })).statusCode,
    ).toBe(200);
  });

  it('keeps a signed route body as bytes, unparsed, under its own limit', async () => {
    const signed = await post('/v1/inbound/gateway', '{"a":1,"a":2}');
    expect(signed.json()).toEqual({ body: null, raw: '{"a":1,"a":2}' });
    expect((await post('/v1/inbound/gateway', `{"a":"${'x'.repeat(200)}"}`)).statusCode).toBe(413);
    expect((await post('/v1/transactions', `{"a":"${'x'.repeat(200)}"}`)).statusCode).toBe(200);
    expect((await post('/v1/transactions', `{"a":"${'x'.repeat(2000)}"}`)).statusCode).toBe(413);
  });

  it('leaves a multipart body unread on the upload route only', async () => {
    const multipart = { 'content-type': 'multipart/form-data; boundary=x' };
    const upload = await post(STATEMENT_UPLOAD_PATH, '--x--\r\n', multipart);
    expect(upload.json()).toEqual({ read: false });
    expect((await post('/v1/transactions', '--x--\r\n', multipart)).statusCode).toBe(415);
  });
});
