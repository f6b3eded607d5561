import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiTags } from '@nestjs/swagger';
import { Audited, CurrentPrincipal, type Principal, Roles } from '@ledger/auth';
import { Idempotency } from '@ledger/idempotency';
import { instantSchema, positiveAmountSchema } from '@ledger/ledger';
import {
  CountDiscrepanciesUseCase,
  CreateOwnerRouteUseCase,
  DISCREPANCY_KINDS,
  GetDiscrepancyUseCase,
  GetRunUseCase,
  ListDiscrepanciesUseCase,
  ListRunsUseCase,
  RunReconciliationUseCase,
  UpdateDiscrepancyUseCase,
} from '@ledger/reconciliation';
import { z } from 'zod';
import { requestSchema } from '../http/openapi';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { pageQuerySchema } from './query.schemas';

const emptySchema = z.strictObject({}).default({});

const discrepanciesQuerySchema = pageQuerySchema.extend({
  status: z.enum(['open', 'acknowledged', 'resolved', 'ignored']).optional(),
  owner: z.string().min(1).max(200).optional(),
  kind: z.enum(DISCREPANCY_KINDS).optional(),
  overdue: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
  minAmount: positiveAmountSchema.optional(),
  /** Age filter: tickets opened before this instant. */
  openedBefore: instantSchema.optional(),
});

const updateDiscrepancySchema = z.strictObject({
  owner: z.string().min(1).max(200).optional(),
  status: z.enum(['acknowledged', 'resolved', 'ignored']).optional(),
  note: z.string().min(1).max(4000).optional(),
});

const ownerRouteSchema = z.strictObject({
  priority: z.number().int().min(0).max(1_000_000),
  kind: z.enum(DISCREPANCY_KINDS).optional(),
  source: z.string().min(1).max(64).optional(),
  accountPrefix: z.string().min(1).max(128).optional(),
  minAmount: positiveAmountSchema.optional(),
  owner: z.string().min(1).max(200),
});

@ApiTags('reconciliation')
@ApiBearerAuth()
@Controller('v1')
export class ReconciliationController {
  constructor(
    private readonly runReconciliation: RunReconciliationUseCase,
    private readonly getRun: GetRunUseCase,
    private readonly listRuns: ListRunsUseCase,
    private readonly listDiscrepancies: ListDiscrepanciesUseCase,
    private readonly getDiscrepancy: GetDiscrepancyUseCase,
    private readonly countDiscrepancies: CountDiscrepanciesUseCase,
    private readonly updateDiscrepancy: UpdateDiscrepancyUseCase,
    private readonly createOwnerRoute: CreateOwnerRouteUseCase,
  ) {}

  /** Runs every check now and brings the tickets up to date; answers the run with its stats. */
  @Post('reconciliation/runs')
  @Roles('finance')
  @Idempotency({ required: true })
  @ApiHeader({ name: 'Idempotency-Key', required: true })
  run(@CurrentPrincipal() principal: Principal, @Body(new ZodValidationPipe(emptySchema)) _body: object) {
    return this.runReconciliation.execute({ tenantId: principal.tenantId, trigger: 'api' });
  }

  @Get('reconciliation/runs')
  @Roles('finance', 'auditor', 'admin')
  runs(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(pageQuerySchema, 'query')) query: z.output<typeof pageQuerySchema>,
  ) {
    return this.listRuns.execute({ tenantId: principal.tenantId, ...query });
  }

  @Get('reconciliation/runs/:id')
  @Roles('finance', 'auditor', 'admin')
  runById(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.getRun.execute({ tenantId: principal.tenantId, id });
  }

  @Get('discrepancies')
  @Roles('finance', 'auditor', 'admin')
  discrepancies(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(discrepanciesQuerySchema, 'query')) query: z.output<typeof discrepanciesQuerySchema>,
  ) {
    return this.listDiscrepancies.execute({ tenantId: principal.tenantId, ...query, minAmountMinor: query.minAmount });
  }

  /** Tickets per status and overdue: the queue's headline, declared before `:id` so it is not read as one. */
  @Get('discrepancies/counts')
  @Roles('finance', 'auditor', 'admin')
  counts(@CurrentPrincipal() principal: Principal) {
    return this.countDiscrepancies.execute({ tenantId: principal.tenantId });
  }

  @Get('discrepancies/:id')
  @Roles('finance', 'auditor', 'admin')
  discrepancy(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.getDiscrepancy.execute({ tenantId: principal.tenantId, id });
  }

  /** Assign, acknowledge, resolve or ignore (these two need a note); every change lands in the history. */
  @Patch('discrepancies/:id')
  @Roles('finance')
  @ApiBody({ schema: requestSchema(updateDiscrepancySchema) })
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(updateDiscrepancySchema)) body: z.output<typeof updateDiscrepancySchema>,
  ) {
    return this.updateDiscrepancy.execute({
      tenantId: principal.tenantId,
      id,
      actor: `api-key:${principal.keyId}`,
      ...body,
    });
  }

  @Post('owner-routes')
  @Roles('finance', 'admin')
  @Audited('owner_route.create')
  @Idempotency({ required: true })
  @ApiHeader({ name: 'Idempotency-Key', required: true })
  @ApiBody({ schema: requestSchema(ownerRouteSchema) })
  route(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(ownerRouteSchema)) body: z.output<typeof ownerRouteSchema>,
  ) {
    return this.createOwnerRoute.execute({ tenantId: principal.tenantId, ...body, minAmountMinor: body.minAmount });
  }
}
