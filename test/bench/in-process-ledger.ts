import 'reflect-metadata';
import { type INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type Database, DatabaseModule, applyMigrations, createDatabase, migrationsDirectory } from '@ledger/db';
import { newId } from '@ledger/ids';
import { CreateSourceUseCase, ImportsModule } from '@ledger/imports';
import { CreateAccountUseCase, LedgerModule, createAccountSchema } from '@ledger/ledger';
import { ReconciliationModule } from '@ledger/reconciliation';

// The import and reconcile suites run the ledger's use cases in the bench's own process (no HTTP), on
// a migrated database: the same code the API, the worker and the CLI run.

export interface InProcessLedger {
  app: INestApplicationContext;
  database: Database;
  close(): Promise<void>;
}

export async function openInProcessLedger(databaseUrl: string): Promise<InProcessLedger> {
  const database = await createDatabase({ databaseUrl, dataDir: '', poolSize: 4 });
  await applyMigrations(database.sql, migrationsDirectory());
  @Module({ imports: [DatabaseModule.forRoot(database), LedgerModule, ImportsModule, ReconciliationModule] })
  class BenchLedgerModule {}
  const app = await NestFactory.createApplicationContext(BenchLedgerModule, { logger: ['error'] });
  return {
    app,
    database,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** A tenant row (no API key: nothing here goes through HTTP). */
export async function createBenchTenant(ledger: InProcessLedger, name: string): Promise<string> {
  const tenantId = newId();
  await ledger.database.sql.query('INSERT INTO tenants (id, name) VALUES ($1, $2)', [tenantId, name]);
  return tenantId;
}

export async function createBenchAccount(
  ledger: InProcessLedger,
  tenantId: string,
  account: { code: string; currency: string; normalBalance: 'debit' | 'credit'; allowNegative?: boolean },
): Promise<void> {
  await ledger.app.get(CreateAccountUseCase).execute({ tenantId, request: createAccountSchema.parse(account) });
}

/** A statement source; answers its id. */
export async function createBenchSource(
  ledger: InProcessLedger,
  tenantId: string,
  source: { name: string; account: string; format: string },
): Promise<string> {
  return (await ledger.app.get(CreateSourceUseCase).execute({ tenantId, ...source })).id;
}
