import { createReadStream } from 'node:fs';
import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiHeader, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal, Roles } from '@ledger/auth';
import { DomainError } from '@ledger/errors';
import { Idempotency } from '@ledger/idempotency';
import { GetImportUseCase, ImportStatementUseCase, ListImportLinesUseCase } from '@ledger/imports';
import type { Response } from 'express';
import { z } from 'zod';
import type { RequestWithUpload } from '../http/statement-upload.middleware';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { pageQuerySchema } from './query.schemas';

const importFieldsSchema = z.strictObject({
  source: z.string().min(1).max(64),
  format: z.string().min(1).max(80).optional(),
});

@ApiTags('imports')
@ApiBearerAuth()
@Controller('v1/imports')
export class ImportsController {
  constructor(
    private readonly importStatement: ImportStatementUseCase,
    private readonly getImport: GetImportUseCase,
    private readonly listLines: ListImportLinesUseCase,
  ) {}

  /** A statement file (multipart field `file`) for a source; a file that cannot be read exactly is refused whole. */
  @Post()
  @Roles('finance')
  @Idempotency({ required: true })
  @ApiHeader({ name: 'Idempotency-Key', required: true })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file', 'source'],
      properties: {
        file: { type: 'string', format: 'binary' },
        source: { type: 'string', description: "a source's name" },
        format: { type: 'string', description: "camt053, mt940 or csv:<profile>; default: the source's" },
      },
    },
  })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(importFieldsSchema)) fields: z.output<typeof importFieldsSchema>,
    @Req() request: RequestWithUpload,
    @Res({ passthrough: true }) response: Response,
  ) {
    const upload = request.upload;
    if (upload === undefined)
      throw new DomainError('VALIDATION_FAILED', 'send the statement as multipart/form-data field "file"', {
        fields: [{ path: 'file', message: 'required' }],
      });
    const result = await this.importStatement.execute({
      tenantId: principal.tenantId,
      source: fields.source,
      format: fields.format,
      fileName: upload.originalName,
      input: createReadStream(upload.path, { highWaterMark: 256 * 1024 }),
    });
    if (!result.created) response.setHeader('Ledger-Existing', 'true');
    return result.import;
  }

  @Get(':id')
  @Roles('finance', 'auditor', 'admin')
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.getImport.execute({ tenantId: principal.tenantId, id });
  }

  @Get(':id/lines')
  @Roles('finance', 'auditor', 'admin')
  lines(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Query(new ZodValidationPipe(pageQuerySchema, 'query')) query: z.output<typeof pageQuerySchema>,
  ) {
    return this.listLines.execute({ tenantId: principal.tenantId, id, ...query });
  }
}
