import { Body, Controller, Get, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal, Public, Roles } from '@ledger/auth';
import { Idempotency } from '@ledger/idempotency';
import {
  CreateInboundSourceUseCase,
  ListInboundSourcesUseCase,
  ReceiveInboundMessageUseCase,
  inboundMappingsSchema,
} from '@ledger/inbox';
import { z } from 'zod';
import { requestSchema } from '../http/openapi';
import { RawBody } from '../http/raw-body';
import { ZodValidationPipe } from '../http/zod-validation.pipe';

const createInboundSourceSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/, 'letters, digits and _ . : - only, at most 64'),
  mappings: inboundMappingsSchema,
});

const inboundMessageSchema = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(100),
  data: z.record(z.string(), z.unknown()),
});

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
  @ApiBearerAuth()
  @Roles('admin')
  @Idempotency({ required: true, redact: ['secret'] })
  @ApiHeader({ name: 'Idempotency-Key', required: true })
  @ApiBody({ schema: requestSchema(createInboundSourceSchema) })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(createInboundSourceSchema)) body: z.output<typeof createInboundSourceSchema>,
  ) {
    return this.createSource.execute({ tenantId: principal.tenantId, ...body });
  }

  @Get('inbound-sources')
  @ApiBearerAuth()
  @Roles('admin', 'auditor')
  list(@CurrentPrincipal() principal: Principal) {
    return this.listSources.execute({ tenantId: principal.tenantId });
  }

  /**
   * A gateway's message `{id, type, data}`, signed with the source's secret (`Ledger-Signature`).
   * No API key and no Idempotency-Key: the signature authenticates, and the message id is the
   * idempotency key (the inbox's primary key). Answers 200 for a new message and for a repeat.
   */
  @Post('inbound/:source')
  @Public()
  @HttpCode(200)
  @Idempotency({ required: false })
  @ApiHeader({ name: 'Ledger-Signature', required: true })
  @ApiBody({ schema: requestSchema(inboundMessageSchema) })
  inbound(
    @Param('source') sourceId: string,
    @Headers('ledger-signature') signature: string | undefined,
    @RawBody() rawBody: string,
    @Body(new ZodValidationPipe(inboundMessageSchema)) message: z.output<typeof inboundMessageSchema>,
  ) {
    return this.receive.execute({ sourceId, signature, rawBody, message });
  }
}
