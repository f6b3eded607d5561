import { Readable } from 'node:stream';
import { Controller, Get, Query, StreamableFile } from '@nestjs/common';
import { ApiBearerAuth, ApiProduces, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal, Roles } from '@ledger/auth';
import { instantSchema } from '@ledger/ledger';
import { ExportJournalUseCase, ExportReconciliationUseCase, JOURNAL_FORMATS } from '@ledger/exports';
import { z } from 'zod';
import { ZodValidationPipe } from '../http/zod-validation.pipe';

const journalExportQuerySchema = z.strictObject({
  format: z.enum(JOURNAL_FORMATS).default('hledger'),
  asOf: instantSchema.optional(),
});

@ApiTags('exports')
@ApiBearerAuth()
@Controller('v1/exports')
export class ExportsController {
  constructor(
    private readonly exportJournal: ExportJournalUseCase,
    private readonly exportReconciliation: ExportReconciliationUseCase,
  ) {}

  /** The journal, streamed: hledger (with closing balance assertions) or CSV, one row per entry. */
  @Get('journal')
  @Roles('auditor', 'admin')
  @ApiProduces('text/plain', 'text/csv')
  async journal(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(journalExportQuerySchema, 'query')) query: z.output<typeof journalExportQuerySchema>,
  ): Promise<StreamableFile> {
    const exported = await this.exportJournal.execute({ tenantId: principal.tenantId, ...query });
    return streamed(exported);
  }

  /** Every discrepancy ticket as CSV for the audit file, newest first. */
  @Get('discrepancies')
  @Roles('auditor', 'admin')
  @ApiProduces('text/csv')
  discrepancies(@CurrentPrincipal() principal: Principal): StreamableFile {
    return streamed(this.exportReconciliation.execute({ tenantId: principal.tenantId, records: 'discrepancies' }));
  }

  /** Every reconciliation run with its stats as CSV for the audit file, newest first. */
  @Get('reconciliation-runs')
  @Roles('auditor', 'admin')
  @ApiProduces('text/csv')
  reconciliationRuns(@CurrentPrincipal() principal: Principal): StreamableFile {
    return streamed(
      this.exportReconciliation.execute({ tenantId: principal.tenantId, records: 'reconciliation-runs' }),
    );
  }
}

function streamed(exported: { contentType: string; fileName: string; chunks: AsyncIterable<string> }): StreamableFile {
  return new StreamableFile(Readable.from(exported.chunks), {
    type: exported.contentType,
    disposition: `attachment; filename="${exported.fileName}"`,
  });
}
