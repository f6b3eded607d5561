import { isUuid } from '@ledger/ids';
import { BULK_TICKETS_MAX } from '@ledger/reconciliation';
import { z } from 'zod';

const owner = z.string().min(1).max(200);
const status = z.enum(['acknowledged', 'resolved', 'ignored']);
const note = z.string().min(1).max(4000);

export const updateDiscrepancySchema = z.strictObject({
  owner: owner.optional(),
  status: status.optional(),
  note: note.optional(),
});

export const reopenSchema = z.strictObject({ note });

export const commentSchema = z.strictObject({ note });

const ticketIds = z
  .array(z.string().refine(isUuid, { message: 'must be a UUID' }).meta({ format: 'uuid' }))
  .min(1)
  // Checked below, so that the error names the first id beyond the bound; stated here for /docs.
  .meta({
    maxItems: BULK_TICKETS_MAX,
    uniqueItems: true,
    description: `Distinct ticket ids, ${BULK_TICKETS_MAX} at most.`,
  })
  .superRefine((ids, context) => {
    // The first id beyond the bound is named, and nothing is changed.
    if (ids.length > BULK_TICKETS_MAX)
      context.addIssue({ code: 'custom', path: [BULK_TICKETS_MAX], message: `at most ${BULK_TICKETS_MAX} ids` });
    const seen = new Set<string>();
    for (const [index, id] of ids.entries()) {
      const normal = id.toLowerCase();
      if (seen.has(normal)) context.addIssue({ code: 'custom', path: [index], message: 'listed twice' });
      seen.add(normal);
    }
  });

export const bulkTicketChangeSchema = z
  .strictObject({ ids: ticketIds, owner: owner.optional(), status: status.optional(), note: note.optional() })
  .refine((change) => change.owner !== undefined || change.status !== undefined || change.note !== undefined, {
    message: 'name at least one of owner, status and note',
    path: ['owner'],
  });

export type BulkTicketChange = z.output<typeof bulkTicketChangeSchema>;
