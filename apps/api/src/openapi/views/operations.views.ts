import type { InboundOutcome, InboundSourceView, ListInboundSourcesUseCase } from '@ledger/inbox';
import { inboundMappingsSchema } from '@ledger/inbox';
import { z } from 'zod';
import { type Assert, type Same, component } from '../components';
import { id, instant } from './fields';

// Views of the service itself: health, and the gateways that post through signed messages.

export const healthView = component(
  'Health',
  z
    .strictObject({
      status: z.enum(['ok', 'warn']),
      database: z.literal('up'),
      outbox: z.strictObject({
        oldestUnpublishedAgeSeconds: z.number().min(0),
        oldestUnqueuedAgeSeconds: z.number().min(0),
        status: z.enum(['ok', 'lagging']),
        lagging: z.array(z.enum(['relay', 'webhookQueue'])),
      }),
      replica: z
        .strictObject({
          state: z.enum(['ok', 'lagging', 'down']),
          lagSeconds: z.number().min(0).nullable(),
        })
        .optional()
        .meta({
          description:
            'Only with a read replica (`DATABASE_READ_URL`): `lagging` (behind by more than ' +
            '`LEDGER_REPLICA_LAG_MAX_MS`) ' +
            'and `down` are warnings, not failures: the primary serves the reads meanwhile.',
        }),
      warnings: z.array(z.string()),
    })
    .meta({
      description:
        'The database answers; a lagging outbox is a warning, not a failure. Ages only: the counts, summed over ' +
        'every tenant, are in `/metrics`.',
    }),
);

const inboundSourceFields = {
  id,
  name: z.string(),
  endpoint: z.string().meta({ description: 'Where the gateway sends its signed messages.' }),
  mappings: inboundMappingsSchema,
  createdAt: instant,
};

export const inboundSourceView = component('InboundSource', z.strictObject(inboundSourceFields));

export const inboundSourceWithSecretView = component(
  'InboundSourceWithSecret',
  z.strictObject({
    ...inboundSourceFields,
    secret: z.string().meta({ description: 'What the gateway signs with; shown once (`[shown once]` in a replay).' }),
  }),
);

export const inboundSourceList = component('InboundSourceList', z.strictObject({ data: z.array(inboundSourceView) }));

export const inboundOutcomeView = component(
  'InboundOutcome',
  z.strictObject({
    messageId: z.string(),
    status: z.enum(['posted', 'ignored']).meta({ description: 'ignored: no mapping for the message type.' }),
    transactionId: id.nullable(),
    duplicate: z.boolean().meta({ description: 'Received before: nothing was done this time.' }),
  }),
);

type Output<Schema extends z.ZodType> = z.output<Schema>;
export type OperationsViewsMatch = [
  Assert<Same<InboundSourceView, Output<typeof inboundSourceView>>>,
  Assert<Same<InboundSourceView & { secret: string }, Output<typeof inboundSourceWithSecretView>>>,
  Assert<Same<Awaited<ReturnType<ListInboundSourcesUseCase['execute']>>, Output<typeof inboundSourceList>>>,
  Assert<Same<InboundOutcome, Output<typeof inboundOutcomeView>>>,
];
