import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Audited, CurrentPrincipal, type Principal } from '@ledger/auth';
import { positiveAmountSchema } from '@ledger/ledger';
import {
  CreateOwnerRouteUseCase,
  DISCREPANCY_KINDS,
  DeleteOwnerRouteUseCase,
  ListOwnerRoutesUseCase,
  type OwnerRoute,
  UpdateOwnerRouteUseCase,
} from '@ledger/reconciliation';
import { z } from 'zod';
import { UuidParamPipe } from '../http/uuid-param.pipe';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { Endpoint } from '../openapi/endpoint';
import { ownerRoutePage } from '../openapi/views/owner-routes.views';
import { ownerRouteView } from '../openapi/views/reconciliation.views';
import { pageQuerySchema } from './query.schemas';

const ownerRouteSchema = z.strictObject({
  priority: z.number().int().min(0).max(1_000_000),
  kind: z.enum(DISCREPANCY_KINDS).optional(),
  source: z.string().min(1).max(64).optional(),
  accountPrefix: z.string().min(1).max(128).optional(),
  minAmount: positiveAmountSchema.optional(),
  owner: z.string().min(1).max(200),
});

// The same fields and limits as a new rule; a criterion set to null is dropped.
const ownerRouteChangeSchema = z
  .strictObject({
    priority: z.number().int().min(0).max(1_000_000).optional(),
    kind: z.enum(DISCREPANCY_KINDS).nullable().optional(),
    source: z.string().min(1).max(64).nullable().optional(),
    accountPrefix: z.string().min(1).max(128).nullable().optional(),
    minAmount: positiveAmountSchema.nullable().optional(),
    owner: z.string().min(1).max(200).optional(),
  })
  .refine((change) => Object.keys(change).length > 0, { message: 'name at least one field to change' });

type OwnerRouteChange = z.output<typeof ownerRouteChangeSchema>;

function routeChangeOf({ minAmount, ...rest }: OwnerRouteChange): Partial<OwnerRoute> {
  return { ...rest, ...(minAmount === undefined ? {} : { minAmountMinor: minAmount }) };
}

const EDITORS = ['finance', 'admin'] as const;

/** The owner routing rules: adding, reading, editing and removing them. */
@ApiTags('reconciliation')
@Controller('v1/owner-routes')
export class OwnerRoutesController {
  constructor(
    private readonly createOwnerRoute: CreateOwnerRouteUseCase,
    private readonly listOwnerRoutes: ListOwnerRoutesUseCase,
    private readonly updateOwnerRoute: UpdateOwnerRouteUseCase,
    private readonly deleteOwnerRoute: DeleteOwnerRouteUseCase,
  ) {}

  @Post()
  @Audited('owner_route.create')
  @Endpoint({
    operationId: 'createOwnerRoute',
    summary: 'Add an owner routing rule',
    description:
      'Tickets matching every given criterion go to `owner`, lowest priority first; no criteria: the default.',
    access: ['finance', 'admin'],
    idempotency: 'required',
    body: ownerRouteSchema,
    bodyExample: { priority: 10, kind: 'amount_mismatch', accountPrefix: 'assets:bank', owner: 'treasury' },
    answer: { status: 201, description: 'The rule.', schema: ownerRouteView },
  })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(ownerRouteSchema)) body: z.output<typeof ownerRouteSchema>,
  ) {
    return this.createOwnerRoute.execute({ tenantId: principal.tenantId, ...body, minAmountMinor: body.minAmount });
  }

  @Get()
  @Endpoint({
    operationId: 'listOwnerRoutes',
    summary: 'List the owner routing rules',
    description: 'In the order they apply: lowest priority first (then by id).',
    access: [...EDITORS],
    query: pageQuerySchema,
    answer: { status: 200, description: 'A page of rules.', schema: ownerRoutePage },
  })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(pageQuerySchema, 'query')) query: z.output<typeof pageQuerySchema>,
  ) {
    return this.listOwnerRoutes.execute({ tenantId: principal.tenantId, ...query });
  }

  @Patch(':id')
  @Audited('owner_route.update')
  @Endpoint({
    operationId: 'updateOwnerRoute',
    summary: 'Change an owner routing rule',
    description:
      'Only the fields sent change; a criterion set to null no longer restricts the rule. Tickets keep their ' +
      'owner; tickets opened from then on follow the rules as they are.',
    access: [...EDITORS],
    body: ownerRouteChangeSchema,
    bodyExample: { priority: 5, owner: 'treasury', minAmount: null },
    answer: { status: 200, description: 'The rule after the change.', schema: ownerRouteView },
    errors: ['NOT_FOUND'],
  })
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', UuidParamPipe) id: string,
    @Body(new ZodValidationPipe(ownerRouteChangeSchema)) body: OwnerRouteChange,
  ) {
    return this.updateOwnerRoute.execute({ tenantId: principal.tenantId, id, change: routeChangeOf(body) });
  }

  @Delete(':id')
  @Audited('owner_route.delete')
  @HttpCode(204)
  @Endpoint({
    operationId: 'deleteOwnerRoute',
    summary: 'Delete an owner routing rule',
    description: 'Tickets it routed keep their owner.',
    access: [...EDITORS],
    answer: { status: 204, description: 'Deleted.' },
    errors: ['VALIDATION_FAILED', 'NOT_FOUND'],
  })
  async remove(@CurrentPrincipal() principal: Principal, @Param('id', UuidParamPipe) id: string): Promise<void> {
    await this.deleteOwnerRoute.execute({ tenantId: principal.tenantId, id });
  }
}
