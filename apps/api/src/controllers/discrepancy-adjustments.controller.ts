import { Body, Controller, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Audited, CurrentPrincipal, type Principal } from '@ledger/auth';
import { DESCRIPTION_LENGTH_MAX, instantSchema } from '@ledger/ledger';
import { AdjustDiscrepancyUseCase } from '@ledger/reconciliation';
import { z } from 'zod';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { Endpoint } from '../openapi/endpoint';
import { ticketAdjustmentView } from '../openapi/views/reconciliation.views';

const adjustmentSchema = z.strictObject({
  counterAccount: z
    .string()
    .min(1)
    .max(128)
    .meta({ description: 'The code or id of the account that takes the other side (an expense, an income).' }),
  description: z.string().min(1).max(DESCRIPTION_LENGTH_MAX).optional(),
  effectiveAt: instantSchema.optional(),
});

/** Fixing a ticket from the ticket: booking what the statement shows and the ledger lacks. */
@ApiTags('reconciliation')
@Controller('v1/discrepancies')
export class DiscrepancyAdjustmentsController {
  constructor(private readonly adjustDiscrepancy: AdjustDiscrepancyUseCase) {}

  @Post(':id/adjustments')
  @Audited('discrepancy.adjust')
  @Endpoint({
    operationId: 'adjustDiscrepancy',
    summary: "Book a ticket's statement lines into the ledger",
    description:
      "Posts one transaction between the account of the ticket's source and `counterAccount`: a " +
      '`missing_in_ledger` line for its exact amount (its reference as `externalRef`), an `amount_mismatch` ' +
      'for the difference between the statement and the ledger side. Money in on the statement goes to the ' +
      "source account's normal side (an asset grows). The lines are matched by hand with the ledger side and " +
      'the new entry, so the next run opens nothing for them, and the ticket is resolved with the transaction ' +
      'in its history; all in one database transaction. `effectiveAt` defaults to the booking day of the line ' +
      'when the ledger accepts that date, otherwise now. Other kinds, and tickets no longer open or ' +
      'acknowledged, answer 422 `NOT_ADJUSTABLE`.',
    access: ['finance'],
    idempotency: 'required',
    body: adjustmentSchema,
    bodyExample: { counterAccount: 'expenses:bank-fees', description: 'monthly account fee' },
    answer: { status: 201, description: 'The transaction and the resolved ticket.', schema: ticketAdjustmentView },
    errors: [
      'NOT_FOUND',
      'NOT_ADJUSTABLE',
      'CURRENCY_MISMATCH',
      'INSUFFICIENT_FUNDS',
      'EXTERNAL_REF_CONFLICT',
      'AMOUNT_OUT_OF_RANGE',
    ],
  })
  adjust(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(adjustmentSchema)) body: z.output<typeof adjustmentSchema>,
  ) {
    return this.adjustDiscrepancy.execute({ tenantId: principal.tenantId, id, actor: principal.actor, ...body });
  }
}
