import { Body, Controller, Get, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { Audited, CurrentPrincipal, type Principal } from '@ledger/auth';
import {
  CreateInboundSourceUseCase,
  ListInboundSourcesUseCase,
  ReceiveInboundMessageUseCase,
  inboundMappingsSchema,
} from '@ledger/inbox';
import { z } from 'zod';
import { parseJsonText } from '../http/json-text';
import { RawBody } from '../http/request-bodies';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { Endpoint } from '../openapi/endpoint';
import { inboundOutcomeView, inboundSourceList, inboundSourceWithSecretView } from '../openapi/views/operations.views';

const createInboundSourceSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/, 'letters, digits and _ . : - only, at most 64'),
  mappings: inboundMappingsSchema,
});

const inboundMessageSchema = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(100),
  data: z.record(z.string(), z.unknown()),
});

const POSTING_ERRORS = [
  'ACCOUNT_NOT_FOUND',
  'UNBALANCED',
  'INSUFFICIENT_FUNDS',
  'CURRENCY_MISMATCH',
  'AMOUNT_OUT_OF_RANGE',
  'EXTERNAL_REF_CONFLICT',
] as const;

@ApiTags('inbox')
@Controller('v1')
export class InboundController {
  constructor(
    private readonly createSource: CreateInboundSourceUseCase,
    private readonly listSources: ListInboundSourcesUseCase,
    private readonly receive: ReceiveInboundMessageUseCase,
  ) {}

  /** A gateway that sends signed messages, and how each message type maps to a posting. */
  @Post('inbound-sources')
  @Audited('inbound_source.create')
  @Endpoint({
    operationId: 'createInboundSource',
    summary: 'Create an inbound source',
    description:
      'A gateway that sends signed messages, and how each message type maps to a posting (`$.data.amount` reads ' +
      'the message); the secret it signs with is in this answer only.',
    access: ['admin'],
    idempotency: 'required',
    redact: ['secret'],
    body: createInboundSourceSchema,
    answer: { status: 201, description: 'The source and its secret.', schema: inboundSourceWithSecretView },
  })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(createInboundSourceSchema)) body: z.output<typeof createInboundSourceSchema>,
  ) {
    return this.createSource.execute({ tenantId: principal.tenantId, ...body });
  }

  @Get('inbound-sources')
  @Endpoint({
    operationId: 'listInboundSources',
    summary: 'List inbound sources',
    access: ['admin', 'auditor'],
    answer: { status: 200, description: 'Every inbound source, by name.', schema: inboundSourceList },
  })
  list(@CurrentPrincipal() principal: Principal) {
    return this.listSources.execute({ tenantId: principal.tenantId });
  }

  /**
   * A gateway's message `{id, type, data}`, signed with the source's secret (`Ledger-Signature`).
   * No API key and no Idempotency-Key: the signature authenticates, and the message id is the
   * idempotency key (the inbox's primary key). Answers 200 for a new message and for a repeat. The body
   * is read raw (LEDGER_INBOUND_BODY_BYTES_MAX) and parsed only after the signature verifies.
   */
  @Post('inbound/:source')
  @HttpCode(200)
  @ApiHeader({
    name: 'Ledger-Signature',
    required: true,
    description: '`t=<unix>,v1=<hex HMAC-SHA256 of "t.body">` with the source\'s secret.',
    schema: { type: 'string' },
  })
  @Endpoint({
    operationId: 'receiveInboundMessage',
    summary: 'Receive a signed gateway message',
    description:
      'No API key and no Idempotency-Key: the signature authenticates, and the message id is the idempotency ' +
      'key. Answers 200 for a new message and for a repeat (`duplicate: true`). The body (64 KiB at most by ' +
      'default) is parsed only once its signature verifies.',
    access: 'public',
    idempotency: 'none',
    body: inboundMessageSchema,
    answer: { status: 200, description: 'What the message did.', schema: inboundOutcomeView },
    errors: ['UNAUTHENTICATED', 'NOT_FOUND', ...POSTING_ERRORS],
  })
  inbound(
    @Param('source') sourceId: string,
    @Headers('ledger-signature') signature: string | undefined,
    @RawBody() rawBody: Buffer,
  ) {
    const readMessage = (raw: Buffer) => parseJsonText(raw, inboundMessageSchema);
    return this.receive.execute({ sourceId, signature, rawBody, readMessage });
  }
}
