import assert from 'node:assert/strict';
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { componentRegistry } from './components';
import { componentSchemasOf } from './json-schema';

const DESCRIPTION = [
  'A double-entry ledger: services post zero-sum transactions of integer minor units, immutable once posted.',
  '',
  '- **Amounts** are strings of digits in minor units (`"1050"` is 10.50 USD), never JSON numbers.',
  '- **Every POST** (except tenant creation and signed inbound messages) takes an `Idempotency-Key`: the same',
  '  key again replays the first answer (`Idempotent-Replayed: true`), so a retry never moves money twice.',
  '- **Errors** answer `{"error": {"code", "message", "details"}}`; each answer lists the codes it can carry.',
  '- **Lists** answer `{"data": [...], "nextCursor"}`; pass `cursor` (`after` for events) to continue.',
  '- **Times** are ISO 8601 UTC.',
].join('\n');

const TAGS: [name: string, description: string][] = [
  ['accounts', 'Accounts and their balances, now and at any past time.'],
  ['transactions', 'Postings, holds (post, void), reversals and batches.'],
  ['events', 'The outbox as a pull feed, in commit order.'],
  ['webhooks', 'Signed event deliveries to your endpoints.'],
  ['imports', 'Statement sources, CSV profiles and statement files.'],
  ['reconciliation', 'Runs, discrepancy tickets, owner routes, matching rules and matches.'],
  ['proofs', 'Signed balance proofs and inclusion proofs for auditors.'],
  ['exports', 'The journal and the reconciliation records, streamed.'],
  ['inbox', 'Gateways that post through signed messages.'],
  ['audit', 'Who changed the configuration, when, with what.'],
  ['api-keys', "A tenant's API keys and their roles."],
  ['tenants', 'Tenants, created by the operator.'],
  ['health', 'Liveness, readiness and metrics.'],
];

const PATH_PARAMETERS: Record<string, string> = {
  id: "The object's id (a UUID).",
  account: "An account's id or code.",
  source: "The inbound source's id (from its `endpoint`).",
  deliveryId: "The delivery's id.",
};

const HEADERS = {
  IdempotentReplayed: {
    description: '`true` when this is the stored answer of an earlier request with the same Idempotency-Key.',
    required: false,
    schema: { type: 'string', enum: ['true'] },
  },
  LedgerExisting: {
    description: '`true` when the object already existed (same externalRef and content, or the same file).',
    required: false,
    schema: { type: 'string', enum: ['true'] },
  },
  RetryAfter: {
    description: 'Seconds to wait before sending the request again (429, and 503 when the database is away).',
    required: false,
    schema: { type: 'integer', minimum: 0 },
  },
};

const SECURITY_SCHEMES = {
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'ldg_<base64url>',
    description:
      "A tenant's API key. Each operation lists the roles that may call it (any one of them is enough): admin " +
      '(keys, accounts, webhooks), poster (transactions), finance (imports, reconciliation), auditor (read-only).',
  },
  operatorToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The operator token (`LEDGER_ADMIN_TOKEN`); it may only create tenants, and read `/metrics`.',
  },
  metricsToken: {
    type: 'http',
    scheme: 'bearer',
    description: "The metrics token (`LEDGER_METRICS_TOKEN`), for the operator's scraper: `/metrics` only.",
  },
} as const;

function config(): Omit<OpenAPIObject, 'paths'> {
  const builder = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Ledger')
    .setDescription(DESCRIPTION)
    .setVersion('1')
    .addServer('{origin}', 'Where the API listens: the deployer chooses the host.', {
      origin: { default: 'http://localhost:3000', description: 'Scheme, host and port (`npm start`: the default).' },
    });
  for (const [name, description] of TAGS) builder.addTag(name, description);
  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) builder.addSecurity(name, scheme);
  return builder.build();
}

type Operation = {
  operationId?: string;
  summary?: string;
  security?: unknown[];
  parameters?: { in: string; name: string; description?: string }[];
};

/** What the contract decorators cannot say per route: public routes' empty security, path parameters. */
function completeOperation(path: string, operation: Operation): void {
  assert.ok(operation.summary, `${path} ${operation.operationId}: a route without an @Endpoint contract`);
  operation.security ??= [];
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in === 'path') parameter.description ??= PATH_PARAMETERS[parameter.name];
  }
}

type Response = { content?: { 'application/json'?: { schema?: { $ref?: string; anyOf?: { $ref: string }[] } } } };

/** `UnauthenticatedError` -> `Unauthenticated`; two codes -> `IdempotencyKeyMissingOrValidationFailed`. */
function errorResponseName(response: Response): string {
  const schema = response.content?.['application/json']?.schema;
  const refs = schema?.anyOf?.map((ref) => ref.$ref) ?? [schema?.$ref];
  assert.ok(
    refs.every((ref) => ref?.endsWith('Error')),
    'an error answer whose schema is not error components',
  );
  return refs.map((ref) => ref!.slice(ref!.lastIndexOf('/') + 1, -'Error'.length)).join('Or');
}

/** Error answers are the same on many routes: each is stated once, in `#/components/responses`. */
function shareErrorResponses(operations: { responses: Record<string, Response | { $ref: string }> }[]) {
  const shared: Record<string, Response> = {};
  for (const operation of operations) {
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!/^[45]/.test(status) || '$ref' in response) continue;
      const name = errorResponseName(response);
      assert.ok(
        shared[name] === undefined || JSON.stringify(shared[name]) === JSON.stringify(response),
        `two different error answers named ${name}`,
      );
      shared[name] = response;
      operation.responses[status] = { $ref: `#/components/responses/${name}` };
    }
  }
  return sortedByKey(shared);
}

function sortedByKey<Value>(record: Record<string, Value>): Record<string, Value> {
  return Object.fromEntries(Object.entries(record).sort(([left], [right]) => (left < right ? -1 : 1)));
}

/** The OpenAPI 3.1 document of every route of `app`, with the answers' schemas from the component registry. */
export function buildApiDocument(app: INestApplication): OpenAPIObject {
  const document = SwaggerModule.createDocument(app, config());
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.values(item).map((operation) => {
      completeOperation(path, operation as Operation);
      return operation as { responses: Record<string, Response> };
    }),
  );
  const { contact: _empty, ...info } = document.info;
  document.info = {
    ...info,
    license: { name: 'Apache-2.0', identifier: 'Apache-2.0' } as OpenAPIObject['info']['license'],
  };
  type Components = NonNullable<OpenAPIObject['components']>;
  document.components = {
    securitySchemes: document.components?.securitySchemes,
    schemas: sortedByKey(componentSchemasOf(componentRegistry)) as Components['schemas'],
    responses: shareErrorResponses(operations) as Components['responses'],
    headers: HEADERS as Components['headers'],
  };
  return document;
}
