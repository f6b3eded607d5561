import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@ledger/auth';
import { MANUAL_MATCH_MEMBERS_MAX, ManageMatchesUseCase } from '@ledger/reconciliation';
import { z } from 'zod';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { Endpoint } from '../openapi/endpoint';
import { matchList, matchView } from '../openapi/views/reconciliation.views';

const matchesQuerySchema = z.strictObject({
  statementLine: z.string().min(1).max(64).optional(),
  transaction: z.string().min(1).max(64).optional(),
});

const manualMatchSchema = z.strictObject({
  statementLines: z.array(z.string().min(1).max(64)).min(1).max(MANUAL_MATCH_MEMBERS_MAX),
  entries: z
    .array(
      z.strictObject({ transaction: z.string().min(1).max(64), leg: z.number().int().min(0).max(1000).optional() }),
    )
    .min(1)
    .max(MANUAL_MATCH_MEMBERS_MAX),
  note: z.string().min(1).max(4000).optional(),
});

const decideMatchSchema = z.strictObject({
  action: z.enum(['confirm', 'undo']),
  note: z.string().min(1).max(4000).optional(),
});

@ApiTags('reconciliation')
@Controller('v1/matches')
export class MatchesController {
  constructor(private readonly matches: ManageMatchesUseCase) {}

  @Get()
  @Endpoint({
    operationId: 'listMatches',
    summary: 'Explain the matches of a line or a transaction',
    description: 'Why a line or a transaction is matched (or was, before someone undid it): rule, evidence, members.',
    access: ['finance', 'auditor', 'admin'],
    query: matchesQuerySchema,
    answer: { status: 200, description: 'The matches, oldest first.', schema: matchList },
  })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(matchesQuerySchema, 'query')) query: z.output<typeof matchesQuerySchema>,
  ) {
    return this.matches.list({ tenantId: principal.tenantId, ...query });
  }

  @Post()
  @Endpoint({
    operationId: 'matchByHand',
    summary: 'Match statement lines to entries by hand',
    description: 'One to one, or as a group (a deposit to the postings it settles), on the account of the lines.',
    access: ['finance'],
    idempotency: 'required',
    body: manualMatchSchema,
    answer: { status: 201, description: 'The match.', schema: matchView },
    errors: ['NOT_FOUND'],
  })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(manualMatchSchema)) body: z.output<typeof manualMatchSchema>,
  ) {
    return this.matches.matchByHand({ tenantId: principal.tenantId, actor: principal.actor, ...body });
  }

  /** Confirm a match, or undo it (the reconciler will not propose its lines and entries together again). */
  @Patch(':id')
  @Endpoint({
    operationId: 'decideMatch',
    summary: 'Confirm or undo a match',
    description: 'An undone match is never proposed again by the reconciler.',
    access: ['finance'],
    body: decideMatchSchema,
    bodyExample: { action: 'confirm' },
    answer: { status: 200, description: 'The match after the decision.', schema: matchView },
    errors: ['NOT_FOUND'],
  })
  decide(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(decideMatchSchema)) body: z.output<typeof decideMatchSchema>,
  ) {
    return this.matches.decide({ tenantId: principal.tenantId, actor: principal.actor, id, ...body });
  }
}
