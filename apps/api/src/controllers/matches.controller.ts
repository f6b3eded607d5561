import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal, Roles } from '@ledger/auth';
import { Idempotency } from '@ledger/idempotency';
import { MANUAL_MATCH_MEMBERS_MAX, ManageMatchesUseCase } from '@ledger/reconciliation';
import { z } from 'zod';
import { requestSchema } from '../http/openapi';
import { ZodValidationPipe } from '../http/zod-validation.pipe';

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
@ApiBearerAuth()
@Controller('v1/matches')
export class MatchesController {
  constructor(private readonly matches: ManageMatchesUseCase) {}

  /**
   * Why a line or a transaction is matched (or was, before someone undid it): rule, evidence, every line
   * and entry of the match.
   */
  @Get()
  @Roles('finance', 'auditor', 'admin')
  list(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(matchesQuerySchema, 'query')) query: z.output<typeof matchesQuerySchema>,
  ) {
    return this.matches.list({ tenantId: principal.tenantId, ...query });
  }

  /**
   * A person matches statement lines to entries on their account: one to one, or as a group (a deposit to
   * the postings it settles).
   */
  @Post()
  @Roles('finance')
  @Idempotency({ required: true })
  @ApiHeader({ name: 'Idempotency-Key', required: true })
  @ApiBody({ schema: requestSchema(manualMatchSchema) })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(manualMatchSchema)) body: z.output<typeof manualMatchSchema>,
  ) {
    return this.matches.matchByHand({ tenantId: principal.tenantId, actor: `api-key:${principal.keyId}`, ...body });
  }

  /** Confirm a match, or undo it (the reconciler will not propose its lines and entries together again). */
  @Patch(':id')
  @Roles('finance')
  @ApiBody({ schema: requestSchema(decideMatchSchema) })
  decide(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(decideMatchSchema)) body: z.output<typeof decideMatchSchema>,
  ) {
    return this.matches.decide({ tenantId: principal.tenantId, actor: `api-key:${principal.keyId}`, id, ...body });
  }
}
