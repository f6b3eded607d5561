import type { ErrorBody } from '@ledger/errors';
import { z } from 'zod';
import { type Assert, type Same, component } from '../components';

export const errorDetail = component(
  'ErrorDetail',
  z
    .strictObject({
      code: z.string().meta({
        description: 'Stable, UPPER_SNAKE; each answer lists the codes it can carry.',
        examples: ['INSUFFICIENT_FUNDS'],
      }),
      message: z.string().meta({ description: 'For people; may change.' }),
      details: z.record(z.string(), z.unknown()).meta({
        description:
          'Facts of this error: `fields` (each bad field and why) for VALIDATION_FAILED, `errors` (every bad ' +
          'line) for IMPORT_INVALID.',
      }),
    })
    .meta({ description: 'What went wrong.' }),
);

export type ErrorViewsMatch = [Assert<Same<ErrorBody['error'], z.output<typeof errorDetail>>>];
