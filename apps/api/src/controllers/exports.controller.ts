import { Readable } from 'node:stream';
import { Controller, Get, Query, StreamableFile } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@ledger/auth';
import { instantSchema } from '@ledger/ledger';
import { ExportJournalUseCase, ExportReconciliationUseCase, JOURNAL_FORMATS } from '@ledger/exports';
import { z } from 'zod';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { Endpoint } from '../openapi/endpoint';

const journalExportQuerySchema = z.strictObject({
  format: z.enum(JOURNAL_FORMATS).default('hledger'),
  asOf: instantSchema.optional(),
});

const AUDITORS = ['auditor', 'admin'] as const;

@ApiTags('exports')
@Controller('v1/exports')
export class ExportsController {
  constructor(
    private readonly exportJournal: ExportJournalUseCase,
    private readonly exportReconciliation: ExportReconciliationUseCase,
  ) {}

  /** The journal, streamed: hledger (with closing balance assertions) or CSV, one row per entry. */
  @Get('journal')
  @Endpoint({
    operationId: 'exportJournal',
    summary: 'Export the journal',
    description:
      'Streamed at one journal position: an hledger journal (with every closing balance asserted) or CSV, one row ' +
      'per entry.',
    access: AUDITORS,
    query: journalExportQuerySchema,
    answer: { status: 200, description: 'The journal, as a file.', text: ['text/plain', 'text/csv'] },
    errors: ['PAYLOAD_TOO_LARGE'],
  })
  async journal(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(journalExportQuerySchema, 'query')) query: z.output<typeof journalExportQuerySchema>,
  ): Promise<StreamableFile> {
    const exported = await this.exportJournal.execute({ tenantId: principal.tenantId, ...query });
    return streamed(exported);
  }

  /** Every discrepancy ticket as CSV for the audit file, newest first. */
  @Get('discrepancies')
  @Endpoint({
    operationId: 'exportDiscrepancies',
    summary: 'Export the discrepancy tickets',
    description: 'Every ticket as CSV for the audit file, newest first.',
    access: AUDITORS,
    answer: { status: 200, description: 'CSV, one row per ticket.', text: ['text/csv'] },
  })
  discrepancies(@CurrentPrincipal() principal: Principal): StreamableFile {
    return streamed(this.exportReconciliation.execute({ tenantId: principal.tenantId, records: 'discrepancies' }));
  }

  /** Every reconciliation run with its stats as CSV for the audit file, newest first. */
  @Get('reconciliation-runs')
  @Endpoint({
    operationId: 'exportReconciliationRuns',
    summary: 'Export the reconciliation runs',
    description: 'Every run with its stats as CSV for the audit file, newest first.',
    access: AUDITORS,
    answer: { status: 200, description: 'CSV, one row per run.', text: ['text/csv'] },
  })
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
