import { Body, Controller, Get, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { Audited, CurrentPrincipal, type Principal } from '@ledger/auth';
import {
  ListConnectorsUseCase,
  PROVIDER_SIGNATURE_HEADER,
  ReceiveProviderWebhookUseCase,
  RegisterConnectorUseCase,
  type RegisterConnectorRequest,
  registerConnectorSchema,
} from '@ledger/payments';
import { RawBody } from '../http/request-bodies';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { Endpoint } from '../openapi/endpoint';
import { connectorList, connectorView, providerWebhookOutcome } from '../openapi/views/payments.views';

@ApiTags('payment orders')
@Controller('v1/connectors')
export class ConnectorsController {
  constructor(
    private readonly register: RegisterConnectorUseCase,
    private readonly listConnectors: ListConnectorsUseCase,
    private readonly receiveWebhook: ReceiveProviderWebhookUseCase,
  ) {}

  @Post()
  @Audited('connector.create')
  @Endpoint({
    operationId: 'registerConnector',
    summary: 'Register a payment connector',
    description:
      'A provider speaking the HTTP connector contract (see the README): `secret` is the bearer token it ' +
      'expects, `webhookSecret` what it signs its webhooks with (`Provider-Signature`), `clearingAccount` the ' +
      "account its orders reserve toward (the orders' currency is that account's). Neither secret is shown again.",
    access: ['admin'],
    idempotency: 'required',
    redact: ['secret', 'webhookSecret'],
    body: registerConnectorSchema,
    bodyExample: {
      name: 'provider-sim',
      kind: 'http',
      baseUrl: 'http://127.0.0.1:4100',
      secret: 'sim_secret_dev',
      webhookSecret: 'sim_webhook_dev',
      clearingAccount: 'assets:clearing:provider-sim',
    },
    answer: { status: 201, description: 'The connector.', schema: connectorView },
    errors: ['ACCOUNT_NOT_FOUND'],
  })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(registerConnectorSchema)) body: RegisterConnectorRequest,
  ) {
    return this.register.execute({ tenantId: principal.tenantId, actor: principal.actor, request: body });
  }

  @Get()
  @Endpoint({
    operationId: 'listConnectors',
    summary: 'List payment connectors',
    access: ['admin', 'poster', 'finance', 'auditor'],
    answer: { status: 200, description: 'Every connector, by name.', schema: connectorList },
  })
  list(@CurrentPrincipal() principal: Principal) {
    return this.listConnectors.execute({ tenantId: principal.tenantId });
  }

  /**
   * The provider's webhook: no API key and no Idempotency-Key; the signature authenticates and the
   * payment's state it carries is applied through the saga's transitions, which ignore what moved already.
   */
  @Post(':id/webhooks')
  @HttpCode(200)
  @ApiHeader({
    name: PROVIDER_SIGNATURE_HEADER,
    required: true,
    description: '`t=<unix>,v1=<hex HMAC-SHA256 of "t.body">` with the connector\'s webhook secret.',
    schema: { type: 'string' },
  })
  @Endpoint({
    operationId: 'receiveProviderWebhook',
    summary: "Receive a provider's signed webhook",
    description:
      'No API key and no Idempotency-Key: the signature authenticates. Late, repeated and out-of-order ' +
      'webhooks are answered 200 and change nothing that changed already; so is one about no order of this ' +
      'connector. The body is parsed only once its signature verifies.',
    access: 'public',
    idempotency: 'none',
    answer: { status: 200, description: 'The order it was about and its status now.', schema: providerWebhookOutcome },
    errors: ['UNAUTHENTICATED', 'NOT_FOUND'],
  })
  webhook(
    @Param('id') connectorId: string,
    @Headers(PROVIDER_SIGNATURE_HEADER.toLowerCase()) signature: string | undefined,
    @RawBody() rawBody: Buffer,
  ) {
    return this.receiveWebhook.execute({ connectorId, signature, rawBody });
  }
}
