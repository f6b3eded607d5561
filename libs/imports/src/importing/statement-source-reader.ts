import { Injectable } from '@nestjs/common';
import { AccountReader, type AccountSummary } from '@ledger/ledger';
import { storedCharset } from '../charsets';
import type { SourceView } from './import.views';
import { ImportRepository } from './import.repository';
import { type SourceRecord, SourceRepository } from './source.repository';

/** A statement source with the ledger account its lines belong to. */
export interface StatementSource {
  id: string;
  name: string;
  format: string | null;
  charset: string | null;
  account: AccountSummary;
  createdAt: Date;
}

/** An imported statement whose opening balance plus its lines is not its closing balance. */
export interface BrokenStatement {
  /** `<import id>:<statement index>` */
  key: string;
  currency: string | null;
  /** The closing balance the bank gave, minor units as text. */
  amount: string | null;
  source: string;
  accountCode: string | null;
  detail: Record<string, unknown>;
}

export function sourceView(source: StatementSource): SourceView & { id: string } {
  return {
    id: source.id,
    name: source.name,
    format: source.format,
    charset: source.charset === null ? null : storedCharset(source.charset),
    account: source.account.code,
    accountId: source.account.id,
    currency: source.account.currency,
    createdAt: source.createdAt.toISOString(),
  };
}

/**
 * How other libs (reconciliation) read statement sources and what they delivered, and how this lib's
 * use cases see a source with its account: the account comes from the ledger's AccountReader.
 */
@Injectable()
export class StatementSourceReader {
  constructor(
    private readonly sources: SourceRepository,
    private readonly imports: ImportRepository,
    private readonly accounts: AccountReader,
  ) {}

  async findByName(tenantId: string, name: string): Promise<StatementSource | undefined> {
    const found = await this.sources.findByName(tenantId, name);
    return found === undefined ? undefined : (await this.withAccounts(tenantId, [found]))[0];
  }

  /** A tenant's sources by name, at most `limit`. */
  async list(tenantId: string, limit: number): Promise<StatementSource[]> {
    return this.withAccounts(tenantId, await this.sources.list(tenantId, limit));
  }

  /** Completed imports' statements that do not add up, at most `limit`. */
  async brokenStatements(tenantId: string, limit: number): Promise<BrokenStatement[]> {
    const rows = await this.imports.brokenStatements(tenantId, limit);
    const accounts = await this.accounts.findByIds(
      tenantId,
      rows.map((row) => row.account_id),
    );
    return rows.map((row) => ({
      key: row.key,
      currency: row.currency,
      amount: row.amount,
      source: row.source,
      accountCode: accounts.get(row.account_id)?.code ?? null,
      detail: row.detail,
    }));
  }

  private async withAccounts(tenantId: string, records: SourceRecord[]): Promise<StatementSource[]> {
    const accounts = await this.accounts.findByIds(
      tenantId,
      records.map((record) => record.accountId),
    );
    // A source's account always exists (a foreign key says so).
    return records.map(({ accountId, ...record }) => ({ ...record, account: accounts.get(accountId)! }));
  }
}
