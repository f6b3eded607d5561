import { UseGuards, applyDecorators } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiHeader, ApiOperation, ApiQuery, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import { OperatorOnly, Public, ROLES, type Role, Roles } from '@ledger/auth';
import type { ErrorCode } from '@ledger/errors';
import { Idempotency } from '@ledger/idempotency';
import type { z } from 'zod';
import { schemaRef } from './components';
import { errorResponses } from './error-responses';
import { type JsonSchema, jsonSchemaOf } from './json-schema';
import { OperationsTokenGuard } from '../metrics/operations-token.guard';
import { ReadsFromPrimary } from '../http/read-consistency.interceptor';

/**
 * Who may call: anyone, the operator token, the metrics token (or the operator token), any API key, or
 * a key with one of these roles.
 */
export type EndpointAccess = 'public' | 'operator' | 'metrics' | 'any-key' | readonly [Role, ...Role[]];

export interface EndpointAnswer {
  status: 200 | 201 | 202 | 204;
  description: string;
  /** A registered view (JSON); or `text`: the media types of a text answer. */
  schema?: z.ZodType;
  text?: readonly string[];
  /** The answer may be an existing object (`Ledger-Existing: true`) rather than a new one. */
  existing?: boolean;
}

/**
 * Everything a route promises: who may call it, what it takes and answers, the errors it can give.
 * The decorator applies both the behaviour (access roles, idempotency) and its OpenAPI description,
 * so that the two cannot drift apart.
 */
export interface EndpointContract {
  operationId: string;
  summary: string;
  description?: string;
  access: EndpointAccess;
  /** POSTs only: `required` (the contract's default for POSTs) or `none` (tenant creation, signed inbound messages). */
  idempotency?: 'required' | 'none';
  /** Fields of the answer stored redacted for replays (secrets shown once). */
  redact?: readonly string[];
  /** The handler claims the key in its own transaction (see IdempotencyOptions.keyInHandler). */
  keyInHandler?: boolean;
  body?: z.ZodType;
  bodyOptional?: boolean;
  bodyExample?: unknown;
  /** A multipart body, described as it is (the file is not a zod schema). */
  multipart?: JsonSchema;
  query?: z.ZodType;
  answer: EndpointAnswer;
  /** The route's own errors; those of authentication, validation and idempotency are added. */
  errors?: readonly ErrorCode[];
  /**
   * A GET route that must read the primary even when a read replica is configured (see
   * ReadConsistencyInterceptor); GET routes read from the replica by default.
   */
  reads?: 'primary';
}

export const IDEMPOTENT_REPLAYED_HEADER = { $ref: '#/components/headers/IdempotentReplayed' };
export const LEDGER_EXISTING_HEADER = { $ref: '#/components/headers/LedgerExisting' };

function accessDecorators(access: EndpointAccess): MethodDecorator[] {
  if (access === 'public') return [Public()];
  if (access === 'operator') return [OperatorOnly(), ApiSecurity('operatorToken')];
  // No API key: the key guard lets it through, and the operations guard wants one of its tokens.
  if (access === 'metrics')
    return [Public(), UseGuards(OperationsTokenGuard), ApiSecurity('metricsToken'), ApiSecurity('operatorToken')];
  const roles = access === 'any-key' ? ROLES : access;
  // One requirement per role: any one of them is enough.
  return [Roles(...roles), ...roles.map((role) => ApiSecurity('apiKey', [role]))];
}

/** Who may call, in words, for the operation's description (the security requirements say it for tools). */
function accessText(access: EndpointAccess): string {
  if (access === 'public') return 'Public: no API key.';
  if (access === 'operator') return 'The operator token only.';
  if (access === 'metrics') return 'The metrics token (`LEDGER_METRICS_TOKEN`) or the operator token; no API key.';
  if (access === 'any-key') return 'Any API key.';
  if (access.length === 1) return `An API key with the role ${access[0]}.`;
  return `An API key with one of the roles ${access.slice(0, -1).join(', ')} or ${access.at(-1)}.`;
}

function impliedErrors(contract: EndpointContract): ErrorCode[] {
  const codes: ErrorCode[] = [...(contract.errors ?? [])];
  const { access } = contract;
  if (access !== 'public') codes.push('UNAUTHENTICATED');
  if (access !== 'public' && access !== 'operator' && access !== 'metrics') codes.push('RATE_LIMITED');
  if (Array.isArray(access) && access.length < ROLES.length) codes.push('FORBIDDEN');
  const hasBody = contract.body !== undefined || contract.multipart !== undefined;
  if (hasBody || contract.query !== undefined || contract.idempotency === 'required') codes.push('VALIDATION_FAILED');
  if (hasBody) codes.push('PAYLOAD_TOO_LARGE');
  if (contract.idempotency !== undefined) codes.push('UNSUPPORTED_MEDIA_TYPE');
  if (contract.idempotency === 'required')
    codes.push('IDEMPOTENCY_KEY_MISSING', 'IDEMPOTENCY_KEY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED');
  return codes;
}

function idempotencyDecorators(contract: EndpointContract): MethodDecorator[] {
  if (contract.idempotency === undefined) return [];
  if (contract.idempotency === 'none') return [Idempotency({ required: false })];
  return [
    Idempotency({ required: true, redact: contract.redact, keyInHandler: contract.keyInHandler }),
    ApiHeader({
      name: 'Idempotency-Key',
      required: true,
      description:
        'Any 1-255 printable characters, unique per request (a UUID). The same key again, within 24 h, replays ' +
        'the first answer instead of doing the work twice: send it again after a timeout or a 5xx.',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
    }),
  ];
}

function bodyDecorators(contract: EndpointContract): MethodDecorator[] {
  if (contract.multipart !== undefined)
    return [ApiConsumes('multipart/form-data'), ApiBody({ schema: contract.multipart, required: true })];
  if (contract.body === undefined) return [];
  const examples =
    contract.bodyExample === undefined
      ? {}
      : { examples: { [contract.operationId]: { summary: contract.summary, value: contract.bodyExample } } };
  return [ApiBody({ schema: jsonSchemaOf(contract.body, 'input'), required: !contract.bodyOptional, ...examples })];
}

function queryDecorators(query: z.ZodType | undefined): MethodDecorator[] {
  if (query === undefined) return [];
  const schema = jsonSchemaOf(query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, { description, ...property }]) =>
    ApiQuery({
      name,
      required: schema.required?.includes(name) ?? false,
      description: description as string | undefined,
      schema: property,
    }),
  );
}

function answerDecorator(contract: EndpointContract): MethodDecorator {
  const { answer } = contract;
  const headers = {
    ...(contract.idempotency === 'required' ? { 'Idempotent-Replayed': IDEMPOTENT_REPLAYED_HEADER } : {}),
    ...(answer.existing ? { 'Ledger-Existing': LEDGER_EXISTING_HEADER } : {}),
  };
  const content =
    answer.schema !== undefined
      ? { 'application/json': { schema: schemaRef(answer.schema) } }
      : answer.text !== undefined
        ? Object.fromEntries(answer.text.map((mediaType) => [mediaType, { schema: { type: 'string' } }]))
        : undefined;
  return ApiResponse({
    status: answer.status,
    description: answer.description,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(content === undefined ? {} : { content }),
  });
}

/** The one decorator of a route's contract: behaviour (access, idempotency) and its OpenAPI description. */
export function Endpoint(contract: EndpointContract): MethodDecorator {
  const errors = Object.entries(errorResponses(impliedErrors(contract))).map(([status, response]) =>
    ApiResponse({ status: status === '5XX' ? '5XX' : Number(status), ...response }),
  );
  return applyDecorators(
    ApiOperation({
      operationId: contract.operationId,
      summary: contract.summary,
      description: [contract.description, accessText(contract.access)].filter(Boolean).join('\n\n'),
    }),
    ...accessDecorators(contract.access),
    ...(contract.reads === 'primary' ? [ReadsFromPrimary()] : []),
    ...idempotencyDecorators(contract),
    ...bodyDecorators(contract),
    ...queryDecorators(contract.query),
    answerDecorator(contract),
    ...errors,
  );
}
