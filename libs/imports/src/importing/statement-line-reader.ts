import { Injectable } from '@nestjs/common';
import { ImportRepository, type LineSummary } from './import.repository';
import type { StatementLineListView } from './import.views';
import { SourceRepository } from './source.repository';

/** How other libs (reconciliation's matches) read stored statement lines: by id, never by joining them. */
@Injectable()
export class StatementLineReader {
  constructor(
    private readonly imports: ImportRepository,
    private readonly sources: SourceRepository,
  ) {}

  /** The named lines of the tenant, by id; unknown ids are left out. */
  async findByIds(tenantId: string, ids: readonly string[]): Promise<Map<string, LineSummary>> {
    const lines = await this.imports.linesByIds(tenantId, [...new Set(ids)]);
    return new Map(lines.map((line) => [line.id, line]));
  }

  /** The named lines as the API shows them, in the order of `ids`; unknown ids are left out. */
  async viewsInOrder(tenantId: string, ids: readonly string[]): Promise<StatementLineListView[]> {
    const views = new Map((await this.imports.lineViewsByIds(tenantId, ids)).map((line) => [line.id, line]));
    return ids.flatMap((id) => views.get(id) ?? []);
  }

  /** The named lines with the ledger account their source maps to; unknown ids are left out. */
  async withAccounts(tenantId: string, ids: readonly string[]): Promise<(LineSummary & { accountId: string })[]> {
    const lines = await this.imports.linesByIds(tenantId, [...new Set(ids)]);
    const sources = await this.sources.findByIds(tenantId, [...new Set(lines.map((line) => line.sourceId))]);
    const accountOf = new Map(sources.map((source) => [source.id, source.accountId]));
    return lines.map((line) => ({ ...line, accountId: accountOf.get(line.sourceId)! }));
  }
}
