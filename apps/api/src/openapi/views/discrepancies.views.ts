import type { BulkUpdateDiscrepanciesUseCase } from '@ledger/reconciliation';
import { z } from 'zod';
import { type Assert, type Same, component } from '../components';
import { id } from './fields';
import { ticketView } from './reconciliation.views';

export const bulkTicketResultsView = component(
  'DiscrepancyBulkResults',
  z
    .strictObject({
      results: z.array(
        z.strictObject({
          id,
          outcome: z.enum(['updated', 'not_found', 'unchanged', 'refused']).meta({
            description:
              '`updated`: changed; `unchanged`: already so; `refused`: the change is not allowed for this ticket ' +
              "(`error` says why); `not_found`: no such ticket in this tenant (another tenant's are not found).",
          }),
          ticket: ticketView.optional(),
          error: z.strictObject({ code: z.string(), message: z.string() }).optional(),
        }),
      ),
    })
    .meta({ description: 'One answer per id, in the order sent, with the ticket as it is now (unless not found).' }),
);

type Output<Schema extends z.ZodType> = z.output<Schema>;
type Answer<Method extends (...args: never[]) => unknown> = Awaited<ReturnType<Method>>;
export type DiscrepancyViewsMatch = [
  Assert<Same<Answer<BulkUpdateDiscrepanciesUseCase['execute']>, Output<typeof bulkTicketResultsView>>>,
];
