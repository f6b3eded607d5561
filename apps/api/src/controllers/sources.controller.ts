import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiTags } from '@nestjs/swagger';
import { Audited, CurrentPrincipal, type Principal, Roles } from '@ledger/auth';
import { Idempotency } from '@ledger/idempotency';
import { CreateSourceUseCase, ListSourcesUseCase, SaveCsvProfileUseCase, csvProfileSchema } from '@ledger/imports';
import { z } from 'zod';
import { requestSchema } from '../http/openapi';
import { ZodValidationPipe } from '../http/zod-validation.pipe';

const createSourceSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/, 'letters, digits and _ . : - only, at most 64'),
  account: z.string().min(1).max(128),
  format: z.string().min(1).max(80).optional(),
});

const saveCsvProfileSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'lower-case letters, digits, _ and - only, at most 40'),
  definition: csvProfileSchema,
});

@ApiTags('imports')
@ApiBearerAuth()
@Controller('v1')
export class SourcesController {
  constructor(
    private readonly createSource: CreateSourceUseCase,
    private readonly listSources: ListSourcesUseCase,
    private readonly saveCsvProfile: SaveCsvProfileUseCase,
  ) {}

  /** A bank account or gateway whose statements are imported, and the ledger account its lines belong to. */
  @Post('sources')
  @Roles('finance', 'admin')
  @Audited('source.create')
  @Idempotency({ required: true })
  @ApiHeader({ name: 'Idempotency-Key', required: true })
  @ApiBody({ schema: requestSchema(createSourceSchema) })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(createSourceSchema)) body: z.output<typeof createSourceSchema>,
  ) {
    return this.createSource.execute({ tenantId: principal.tenantId, ...body });
  }

  @Get('sources')
  @Roles('finance', 'auditor', 'admin')
  list(@CurrentPrincipal() principal: Principal) {
    return this.listSources.execute({ tenantId: principal.tenantId });
  }

  /** A custom CSV layout, then usable as format `csv:<name>`. */
  @Post('csv-profiles')
  @Roles('finance', 'admin')
  @Audited('csv_profile.save')
  @Idempotency({ required: true })
  @ApiHeader({ name: 'Idempotency-Key', required: true })
  @ApiBody({ schema: requestSchema(saveCsvProfileSchema) })
  saveProfile(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(saveCsvProfileSchema)) body: z.output<typeof saveCsvProfileSchema>,
  ) {
    return this.saveCsvProfile.execute({ tenantId: principal.tenantId, ...body });
  }
}
