import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { newId } from '@ledger/ids';
import { DomainError } from '@ledger/errors';
import { AccountReader } from '@ledger/ledger';
import { isStatementCharset, STATEMENT_CHARSETS } from '../charsets';
import { type CsvProfile } from '../csv/csv-profile';
import type { SourceView } from './import.views';
import { STATEMENT_FORMAT_PATTERN } from './import-statement.use-case';
import { SourceRepository } from './source.repository';
import { StatementSourceReader, sourceView } from './statement-source-reader';

export const SOURCES_LISTED_MAX = 500;

export interface CreateSourceCommand {
  tenantId: string;
  name: string;
  /** The ledger account (id or code) the source's lines belong to. */
  account: string;
  format?: string;
  /** What its files are written in when they are not UTF-8 (see STATEMENT_CHARSETS). */
  charset?: string;
}

/** A statement source: a bank account or a gateway, mapped to the ledger account its lines belong to. */
@Injectable()
export class CreateSourceUseCase {
  constructor(
    private readonly db: Database,
    private readonly sources: SourceRepository,
    private readonly accounts: AccountReader,
  ) {}

  async execute(command: CreateSourceCommand): Promise<SourceView & { id: string }> {
    if (command.format !== undefined && !STATEMENT_FORMAT_PATTERN.test(command.format)) {
      throw new DomainError(
        'VALIDATION_FAILED',
        'format must be camt053, camt052, camt054, mt940, mt942, bai2 or csv:<profile>',
        { fields: [{ path: 'format', message: 'unknown format' }] },
      );
    }
    if (command.charset !== undefined && !isStatementCharset(command.charset)) {
      throw new DomainError('VALIDATION_FAILED', `charset must be one of ${STATEMENT_CHARSETS.join(', ')}`, {
        fields: [{ path: 'charset', message: 'unsupported charset' }],
      });
    }
    const account = await this.accounts.findByRef(command.tenantId, command.account);
    if (account === undefined)
      throw new DomainError('ACCOUNT_NOT_FOUND', `unknown account ${command.account}`, { accounts: [command.account] });
    const id = newId();
    const createdAt = await this.db.transaction('read committed', () =>
      this.sources.insert(command.tenantId, {
        id,
        name: command.name,
        accountId: account.id,
        format: command.format ?? null,
        charset: command.charset ?? null,
      }),
    );
    if (createdAt === undefined)
      throw new DomainError('VALIDATION_FAILED', `a source named ${command.name} already exists`, {
        fields: [{ path: 'name', message: 'taken' }],
      });
    return {
      id,
      name: command.name,
      format: command.format ?? null,
      charset: command.charset === undefined ? null : command.charset,
      account: account.code,
      accountId: account.id,
      currency: account.currency,
      createdAt: createdAt.toISOString(),
    };
  }
}

@Injectable()
export class ListSourcesUseCase {
  constructor(private readonly sources: StatementSourceReader) {}

  async execute(command: { tenantId: string }): Promise<{ data: (SourceView & { id: string })[]; nextCursor: null }> {
    const sources = await this.sources.list(command.tenantId, SOURCES_LISTED_MAX);
    return { data: sources.map(sourceView), nextCursor: null };
  }
}

/** A tenant's own CSV layout, used as format 'csv:<name>'; saving a name again replaces it. */
@Injectable()
export class SaveCsvProfileUseCase {
  constructor(
    private readonly db: Database,
    private readonly sources: SourceRepository,
  ) {}

  async execute(command: {
    tenantId: string;
    name: string;
    definition: CsvProfile;
  }): Promise<{ name: string; format: string; definition: CsvProfile }> {
    if (command.name === 'gateway' || command.name === 'bank') {
      throw new DomainError('VALIDATION_FAILED', `${command.name} is a built-in profile`, {
        fields: [{ path: 'name', message: 'reserved' }],
      });
    }
    await this.db.transaction('read committed', () =>
      this.sources.saveCsvProfile(command.tenantId, command.name, command.definition),
    );
    return { name: command.name, format: `csv:${command.name}`, definition: command.definition };
  }
}
