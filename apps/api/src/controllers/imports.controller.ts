import { createReadStream } from 'node:fs';
import { Body, Controller, Get, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@ledger/auth';
import { DomainError } from '@ledger/errors';
import { GetImportUseCase, ImportStatementUseCase, ListImportLinesUseCase, ListImportsUseCase } from '@ledger/imports';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { type RequestWithUpload, StatementUploadReception } from '../http/statement-upload';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { Endpoint } from '../openapi/endpoint';
import { importPage, importView, statementLinePage } from '../openapi/views/imports.views';
import { importsQuerySchema, pageQuerySchema } from './query.schemas';

const importFieldsSchema = z.strictObject({
  source: z.string().min(1).max(64),
  format: z.string().min(1).max(80).optional(),
});

const READERS = ['finance', 'auditor', 'admin'] as const;

@ApiTags('imports')
@Controller('v1/imports')
export class ImportsController {
  constructor(
    private readonly importStatement: ImportStatementUseCase,
    private readonly getImport: GetImportUseCase,
    private readonly listLines: ListImportLinesUseCase,
    private readonly listImports: ListImportsUseCase,
  ) {}

  /** A statement file (multipart field `file`) for a source; a file that cannot be read exactly is refused whole. */
  @Post()
  @UseGuards(StatementUploadReception)
  @Endpoint({
    operationId: 'importStatement',
    summary: 'Import a statement file',
    description:
      'camt.053, MT940 or CSV, streamed: every amount converted exactly. A file with any line that cannot be read ' +
      'exactly is refused whole (`IMPORT_INVALID` lists every bad line); the same file again answers its first ' +
      'import (`Ledger-Existing: true`).',
    access: ['finance'],
    idempotency: 'required',
    multipart: {
      type: 'object',
      required: ['file', 'source'],
      properties: {
        file: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The statement file.' },
        source: { type: 'string', description: "A source's name." },
        format: {
          type: 'string',
          description:
            '`camt053`, `camt052`, `camt054`, `mt940`, `mt942`, `bai2` or `csv:<profile>` (`camt052`, `camt054` ' +
            "and `mt942` are interim reports); default: the source's; where the source has none, the format the " +
            "file's first bytes show (the answer's `format`).",
        },
      },
    },
    answer: { status: 201, description: 'The import.', schema: importView, existing: true },
    errors: ['NOT_FOUND', 'IMPORT_INVALID', 'FORMAT_NOT_RECOGNISED'],
  })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(importFieldsSchema)) fields: z.output<typeof importFieldsSchema>,
    @Req() request: RequestWithUpload,
    @Res({ passthrough: true }) response: FastifyReply,
  ) {
    const upload = request.upload;
    if (upload === undefined)
      throw new DomainError('VALIDATION_FAILED', 'send the statement as multipart/form-data field "file"', {
        fields: [{ path: 'file', message: 'required' }],
      });
    const result = await this.importStatement.execute({
      tenantId: principal.tenantId,
      actor: principal.actor,
      source: fields.source,
      format: fields.format,
      fileName: upload.originalName,
      input: createReadStream(upload.path, { highWaterMark: 256 * 1024 }),
    });
    if (!result.created) response.header('Ledger-Existing', 'true');
    return result.import;
  }

  @Get()
  @Endpoint({
    operationId: 'listImports',
    summary: 'List imports',
    description: "The tenant's imported statement files, newest first; `source` keeps one source's.",
    access: READERS,
    query: importsQuerySchema,
    answer: { status: 200, description: 'A page of imports.', schema: importPage },
    errors: ['NOT_FOUND'],
  })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(importsQuerySchema, 'query')) query: z.output<typeof importsQuerySchema>,
  ) {
    return this.listImports.execute({ tenantId: principal.tenantId, ...query });
  }

  @Get(':id')
  @Endpoint({
    operationId: 'getImport',
    summary: 'Get an import',
    access: READERS,
    answer: { status: 200, description: 'The import.', schema: importView },
    errors: ['NOT_FOUND'],
  })
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.getImport.execute({ tenantId: principal.tenantId, id });
  }

  @Get(':id/lines')
  @Endpoint({
    operationId: 'listImportLines',
    summary: "List an import's statement lines",
    access: READERS,
    query: pageQuerySchema,
    answer: { status: 200, description: 'A page of lines.', schema: statementLinePage },
    errors: ['NOT_FOUND'],
  })
  lines(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Query(new ZodValidationPipe(pageQuerySchema, 'query')) query: z.output<typeof pageQuerySchema>,
  ) {
    return this.listLines.execute({ tenantId: principal.tenantId, id, ...query });
  }
}
