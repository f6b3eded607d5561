import { decodeIdCursor, pageOf } from '@ledger/db';
import { isUuid } from '@ledger/ids';
import { Injectable } from '@nestjs/common';
import { DomainError } from '@ledger/errors';
import { ImportRepository } from './import.repository';
import type { ImportView, StoredLineView } from './import.views';
import { SourceRepository } from './source.repository';

@Injectable()
export class GetImportUseCase {
  constructor(private readonly imports: ImportRepository) {}

  async execute(command: { tenantId: string; id: string }): Promise<ImportView> {
    const found = isUuid(command.id)
      ? await this.imports.findImport(command.tenantId, command.id.toLowerCase())
      : undefined;
    if (found === undefined) throw new DomainError('NOT_FOUND', `import ${command.id} not found`);
    return found;
  }
}

/** The tenant's imports, newest first; of one source (by name) when `source` is given. */
@Injectable()
export class ListImportsUseCase {
  constructor(
    private readonly imports: ImportRepository,
    private readonly sources: SourceRepository,
  ) {}

  async execute(command: {
    tenantId: string;
    source?: string;
    cursor?: string;
    limit: number;
  }): Promise<{ data: ImportView[]; nextCursor: string | null }> {
    let sourceId: string | undefined;
    if (command.source !== undefined) {
      const source = await this.sources.findByName(command.tenantId, command.source);
      if (source === undefined) throw new DomainError('NOT_FOUND', `source ${command.source} not found`);
      sourceId = source.id;
    }
    const beforeId = command.cursor === undefined ? undefined : decodeIdCursor(command.cursor);
    const rows = await this.imports.listImports(command.tenantId, { sourceId, beforeId }, command.limit + 1);
    return pageOf(rows, command.limit, (last) => [last.id]);
  }
}

function decodeLineCursor(cursor: string): { lineNumber: number; id: string } {
  const [lineNumber, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (!/^\d{1,10}$/.test(lineNumber ?? '') || !isUuid(id ?? '')) {
    throw new DomainError('VALIDATION_FAILED', 'cursor is not one this list gave out', {
      fields: [{ path: 'cursor', message: 'invalid cursor' }],
    });
  }
  return { lineNumber: Number(lineNumber), id: id! };
}

/** The lines an import added, in file order. */
@Injectable()
export class ListImportLinesUseCase {
  constructor(
    private readonly imports: ImportRepository,
    private readonly getImport: GetImportUseCase,
  ) {}

  async execute(command: {
    tenantId: string;
    id: string;
    cursor?: string;
    limit: number;
  }): Promise<{ data: StoredLineView[]; nextCursor: string | null }> {
    const found = await this.getImport.execute(command);
    const after = command.cursor
      ? decodeLineCursor(command.cursor)
      : { lineNumber: 0, id: '00000000-0000-0000-0000-000000000000' };
    const rows = await this.imports.listLines(command.tenantId, found.id, after, command.limit + 1);
    return pageOf(rows, command.limit, (last) => [String(last.lineNumber), last.id]);
  }
}

/** One statement line by id, with the import it came from: what a ticket's evidence points at. */
@Injectable()
export class GetStatementLineUseCase {
  constructor(private readonly imports: ImportRepository) {}

  async execute(command: { tenantId: string; id: string }): Promise<StoredLineView & { importId: string }> {
    const found = isUuid(command.id)
      ? await this.imports.findLine(command.tenantId, command.id.toLowerCase())
      : undefined;
    if (found === undefined) throw new DomainError('NOT_FOUND', `statement line ${command.id} not found`);
    return found;
  }
}
