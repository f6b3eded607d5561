import type { ConnectorView, PaymentOrderStepView, PaymentOrderView, ProviderWebhookOutcome } from '@ledger/payments';
import { PAYMENT_ORDER_STATUSES } from '@ledger/payments';
import { z } from 'zod';
import { type Assert, type Same, component, pageOf } from '../components';
import { actor, amount, currency, id, instant, metadata } from './fields';

const status = z.enum(PAYMENT_ORDER_STATUSES).meta({
  description:
    '`reserved` (hold placed) -> `submitting` (sent to the provider, or being asked about after an unknown ' +
    'outcome) -> `submitted` (accepted: the pivot) -> `settled` (hold posted) -> `returned`; or `rejected` ' +
    '(the provider refused; hold voided) or `cancelled` (before submitting; hold voided).',
});

const stepView = z.strictObject({
  seq: z.number().int().min(1),
  step: z.string().meta({ examples: ['submit'] }),
  outcome: z.string().meta({ examples: ['unknown'] }),
  status,
  detail: z.record(z.string(), z.unknown()).meta({ description: "The provider's answer, or the ledger's side." }),
  actor,
  at: instant,
});

export const paymentOrderView = component(
  'PaymentOrder',
  z
    .strictObject({
      id,
      connector: z.string(),
      direction: z.enum(['payout', 'refund']),
      sourceAccount: z.string(),
      amount,
      currency,
      counterparty: z.record(z.string(), z.unknown()),
      externalRef: z.string().nullable(),
      description: z.string().nullable(),
      metadata,
      status,
      stuck: z.boolean().meta({ description: "Past its step's deadline (a `stuck_payment_order` ticket)." }),
      holdId: id,
      settleTransactionId: id.nullable(),
      returnTransactionId: id.nullable(),
      provider: z.strictObject({ paymentId: z.string().nullable(), status: z.string().nullable() }),
      attempts: z.number().int().min(0),
      nextAttemptAt: instant.nullable(),
      deadlineAt: instant.nullable(),
      lastError: z.string().nullable(),
      actor,
      createdAt: instant,
      updatedAt: instant,
      steps: z.array(stepView).optional().meta({ description: 'The timeline (on the single order, not in lists).' }),
    })
    .meta({ description: 'Money leaving through a provider, and where its saga stands.' }),
);

export const paymentOrderList = pageOf('PaymentOrderPage', paymentOrderView, 'Payment orders, newest first.');

export const paymentOrderCounts = component(
  'PaymentOrderCounts',
  z.strictObject({
    byStatus: z.partialRecord(status, z.number().int().min(0)),
    stuck: z.number().int().min(0).meta({ description: "Orders past their step's deadline, of any status." }),
  }),
);

export const connectorView = component(
  'PaymentConnector',
  z
    .strictObject({
      id,
      name: z.string(),
      kind: z.literal('http'),
      baseUrl: z.string(),
      clearingAccount: z.string(),
      currency,
      requestTimeoutMs: z.number().int(),
      submitDeadlineSeconds: z.number().int(),
      settleDeadlineSeconds: z.number().int(),
      webhookEndpoint: z.string().meta({ description: 'Where the provider sends its signed webhooks.' }),
      createdAt: instant,
    })
    .meta({ description: 'A payment provider; its secrets are never shown.' }),
);

export const connectorList = component('PaymentConnectorList', z.strictObject({ data: z.array(connectorView) }));

export const providerWebhookOutcome = component(
  'ProviderWebhookOutcome',
  z.strictObject({
    paymentOrderId: id.nullable().meta({ description: 'Null: the webhook named no order of this connector.' }),
    status: status.nullable(),
  }),
);

type Output<Schema extends z.ZodType> = z.output<Schema>;
export type PaymentViewsMatch = [
  Assert<Same<PaymentOrderView, Output<typeof paymentOrderView>>>,
  Assert<Same<PaymentOrderStepView, Output<typeof stepView>>>,
  Assert<Same<ConnectorView, Output<typeof connectorView>>>,
  Assert<Same<ProviderWebhookOutcome, Output<typeof providerWebhookOutcome>>>,
];
