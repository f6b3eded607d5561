import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@ledger/auth';
import {
  CancelPaymentOrderUseCase,
  CountPaymentOrdersUseCase,
  CreatePaymentOrderUseCase,
  type CreatePaymentOrderRequest,
  GetPaymentOrderUseCase,
  ListPaymentOrdersUseCase,
  PAYMENT_ORDER_STATUSES,
  createPaymentOrderSchema,
} from '@ledger/payments';
import { z } from 'zod';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { Endpoint } from '../openapi/endpoint';
import { paymentOrderCounts, paymentOrderList, paymentOrderView } from '../openapi/views/payments.views';
import { emptyBodySchema, pageQuerySchema } from './query.schemas';

const READERS = ['poster', 'finance', 'auditor'] as const;

const listQuerySchema = pageQuerySchema.extend({
  status: z.enum(PAYMENT_ORDER_STATUSES).optional(),
  connector: z.string().min(1).max(64).optional().meta({ description: "A connector's name or id." }),
  stuck: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional()
    .meta({ description: "Only orders past their step's deadline." }),
});

const ORDER_EXAMPLE = {
  connector: 'provider-sim',
  direction: 'payout',
  sourceAccount: 'liabilities:wallets:alice',
  amount: '2500',
  currency: 'EUR',
  counterparty: { name: 'Alice Martin', iban: 'DE89370400440532013000' },
  externalRef: 'withdrawal-1042',
};

@ApiTags('payment orders')
@Controller('v1/payment-orders')
export class PaymentOrdersController {
  constructor(
    private readonly create: CreatePaymentOrderUseCase,
    private readonly getOrder: GetPaymentOrderUseCase,
    private readonly listOrders: ListPaymentOrdersUseCase,
    private readonly countOrders: CountPaymentOrdersUseCase,
    private readonly cancel: CancelPaymentOrderUseCase,
  ) {}

  @Post()
  @HttpCode(202)
  @Endpoint({
    operationId: 'createPaymentOrder',
    summary: 'Pay out through a provider',
    description:
      "Reserves the amount on `sourceAccount` (a hold toward the connector's clearing account) and answers at " +
      'once with the order `reserved`; the worker sends it to the provider with the key `<order id>:submit`, ' +
      'asks again by that key after a timeout or 5xx, posts the hold when the provider confirms and voids it ' +
      'when the provider refuses. A later return is a reversing transaction. Follow it with GET or the ' +
      '`payment_order.*` events. A source that cannot cover the amount is refused with nothing stored.',
    access: ['poster'],
    idempotency: 'required',
    body: createPaymentOrderSchema,
    bodyExample: ORDER_EXAMPLE,
    answer: { status: 202, description: 'The order, reserved.', schema: paymentOrderView },
    errors: ['NOT_FOUND', 'ACCOUNT_NOT_FOUND', 'CURRENCY_MISMATCH', 'INSUFFICIENT_FUNDS', 'EXTERNAL_REF_CONFLICT'],
  })
  post(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(createPaymentOrderSchema)) body: CreatePaymentOrderRequest,
  ) {
    return this.create.execute({ tenantId: principal.tenantId, actor: principal.actor, request: body });
  }

  @Get()
  @Endpoint({
    operationId: 'listPaymentOrders',
    summary: 'List payment orders',
    description: "Newest first; `stuck=true` lists only those past their step's deadline.",
    access: READERS,
    query: listQuerySchema,
    answer: { status: 200, description: 'A page of orders (without their steps).', schema: paymentOrderList },
  })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(listQuerySchema, 'query')) query: z.output<typeof listQuerySchema>,
  ) {
    return this.listOrders.execute({ tenantId: principal.tenantId, ...query });
  }

  @Get('counts')
  @Endpoint({
    operationId: 'countPaymentOrders',
    summary: 'Payment orders per status',
    access: READERS,
    answer: {
      status: 200,
      description: 'How many orders are in each status, and how many are stuck.',
      schema: paymentOrderCounts,
    },
  })
  counts(@CurrentPrincipal() principal: Principal) {
    return this.countOrders.execute({ tenantId: principal.tenantId });
  }

  @Get(':id')
  @Endpoint({
    operationId: 'getPaymentOrder',
    summary: 'Get a payment order',
    description: 'With its steps: what each did and what the provider answered.',
    access: READERS,
    answer: { status: 200, description: 'The order and its timeline.', schema: paymentOrderView },
    errors: ['NOT_FOUND'],
  })
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.getOrder.execute({ tenantId: principal.tenantId, id });
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @Endpoint({
    operationId: 'cancelPaymentOrder',
    summary: 'Cancel a payment order',
    description:
      'Only before the provider was called (`reserved`): the hold is voided and the order ends `cancelled`. ' +
      'After that the provider may have the payment, and the order can only complete, be rejected or be returned.',
    access: ['poster'],
    idempotency: 'required',
    body: emptyBodySchema,
    bodyOptional: true,
    answer: { status: 200, description: 'The order, cancelled.', schema: paymentOrderView },
    errors: ['NOT_FOUND', 'PAYMENT_ORDER_NOT_CANCELLABLE'],
  })
  cancelOrder(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(emptyBodySchema)) _body: object,
  ) {
    return this.cancel.execute({ tenantId: principal.tenantId, id, actor: principal.actor });
  }
}
