import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Audited, CurrentPrincipal, type Principal } from '@ledger/auth';
import {
  CreateSourceUseCase,
  ListSourcesUseCase,
  SaveCsvProfileUseCase,
  STATEMENT_CHARSETS,
  csvProfileSchema,
} from '@ledger/imports';
import { z } from 'zod';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { Endpoint } from '../openapi/endpoint';
import { csvProfileView, sourceList, sourceView } from '../openapi/views/imports.views';

const createSourceSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/, 'letters, digits and _ . : - only, at most 64'),
  account: z.string().min(1).max(128),
  format: z
    .string()
    .min(1)
    .max(80)
    .optional()
    .meta({
      description:
        '`camt053`, `camt052`, `camt054`, `mt940`, `mt942`, `bai2` or `csv:<profile>`: the default format of its ' +
        'files; the lines of an interim report (`camt052`, `camt054`, `mt942`) are stored interim until a final ' +
        "statement brings them. Left out: each import names its format or it is recognised from the file's " +
        'first bytes.',
    }),
  charset: z
    .enum(STATEMENT_CHARSETS)
    .optional()
    .meta({
      description:
        "What the source's files are written in when they are not UTF-8 (UTF-8, with or without BOM, is " +
        'recognised first). `utf-8` accepts UTF-8 only. Left out: MT940, MT942 and BAI2 windows-1252, the other ' +
        'formats UTF-8 only.',
    }),
});

const saveCsvProfileSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'lower-case letters, digits, _ and - only, at most 40'),
  definition: csvProfileSchema,
});

@ApiTags('imports')
@Controller('v1')
export class SourcesController {
  constructor(
    private readonly createSource: CreateSourceUseCase,
    private readonly listSources: ListSourcesUseCase,
    private readonly saveCsvProfile: SaveCsvProfileUseCase,
  ) {}

  /** A bank account or gateway whose statements are imported, and the ledger account its lines belong to. */
  @Post('sources')
  @Audited('source.create')
  @Endpoint({
    operationId: 'createSource',
    summary: 'Create a statement source',
    description: 'A bank account or gateway whose statements are imported, and the ledger account its lines belong to.',
    access: ['finance', 'admin'],
    idempotency: 'required',
    body: createSourceSchema,
    bodyExample: { name: 'bank-eur', account: 'assets:bank:eur', format: 'camt053' },
    answer: { status: 201, description: 'The source.', schema: sourceView },
    errors: ['ACCOUNT_NOT_FOUND'],
  })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(createSourceSchema)) body: z.output<typeof createSourceSchema>,
  ) {
    return this.createSource.execute({ tenantId: principal.tenantId, ...body });
  }

  @Get('sources')
  @Endpoint({
    operationId: 'listSources',
    summary: 'List statement sources',
    access: ['finance', 'auditor', 'admin'],
    answer: { status: 200, description: 'Every source, by name.', schema: sourceList },
  })
  list(@CurrentPrincipal() principal: Principal) {
    return this.listSources.execute({ tenantId: principal.tenantId });
  }

  /** A custom CSV layout, then usable as format `csv:<name>`. */
  @Post('csv-profiles')
  @Audited('csv_profile.save')
  @Endpoint({
    operationId: 'saveCsvProfile',
    summary: 'Save a CSV profile',
    description:
      'A CSV layout (columns, date format, separators, sign convention), then usable as format `csv:<name>`.',
    access: ['finance', 'admin'],
    idempotency: 'required',
    body: saveCsvProfileSchema,
    answer: { status: 201, description: 'The saved profile.', schema: csvProfileView },
  })
  saveProfile(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(saveCsvProfileSchema)) body: z.output<typeof saveCsvProfileSchema>,
  ) {
    return this.saveCsvProfile.execute({ tenantId: principal.tenantId, ...body });
  }
}
