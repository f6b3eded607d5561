#!/usr/bin/env node
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AuditTrail, CreateApiKeyUseCase, CreateTenantUseCase, ROLES, type Role, TenantReader } from '@ledger/auth';
import { type AppConfig, loadConfig, signingKey } from '@ledger/config';
import { type Database, openMigratedDatabase } from '@ledger/db';
import { Command, InvalidArgumentError } from 'commander';
import { VerifyJournalUseCase } from '@ledger/ledger';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { ImportStatementUseCase } from '@ledger/imports';
import { RunReconciliationUseCase } from '@ledger/reconciliation';
import { ProgressBar } from './progress-bar';
import { cliActor } from './cli-actor';
import { CliModule } from './cli.module';
import { type UseCaseContext, parseInstant, registerAuditCommands } from './audit-commands';
import { registerKeyCommands } from './key-commands';

async function withDatabase<T>(work: (database: Database, config: AppConfig) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const { database } = await openMigratedDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: 2,
  });
  try {
    return await work(database, config);
  } finally {
    await database.close();
  }
}

async function withUseCases<T>(work: (context: UseCaseContext) => Promise<T>): Promise<T> {
  return withDatabase(async (database, config) => {
    const context = await NestFactory.createApplicationContext(
      CliModule.forRoot(database, await signingKey(config), config.reconcileRunLeaseSeconds),
      { logger: ['error'] },
    );
    try {
      return await work(context);
    } finally {
      await context.close();
    }
  });
}

function parseRoles(text: string): Role[] {
  const roles = text.split(',').map((role) => role.trim());
  const unknown = roles.filter((role) => !(ROLES as readonly string[]).includes(role));
  if (unknown.length > 0 || roles.length === 0)
    throw new InvalidArgumentError(`roles are a comma-separated list of: ${ROLES.join(', ')}`);
  return roles as Role[];
}

const program = new Command('ledger')
  .description(
    'Operate the ledger: migrations, tenants, keys, statement imports, reconciliation, journal verification, ' +
      'balance proofs and exports',
  )
  .showHelpAfterError();

program
  .command('migrate')
  .description('apply pending SQL migrations (DATABASE_URL, or the embedded database in LEDGER_DATA_DIR)')
  .action(async () => {
    const config = loadConfig();
    const { database, applied } = await openMigratedDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      poolSize: 2,
    });
    await database.close();
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'up to date: no pending migrations');
  });

const tenants = program.command('tenants').description('manage tenants');
tenants
  .command('create <name>')
  .description('create a tenant and print its first admin API key (shown once)')
  .action(async (name: string) => {
    const created = await withUseCases((context) =>
      context
        .get(AuditTrail)
        .record({ actor: cliActor(), action: 'tenant.create', request: { name } }, () =>
          context.get(CreateTenantUseCase).execute({ name }),
        ),
    );
    console.log(`tenant: ${created.tenant.id} (${created.tenant.name})\nadmin API key (shown once): ${created.apiKey}`);
  });

const keys = program.command('keys').description('manage API keys');
keys
  .command('create')
  .description('create an API key for a tenant and print it (shown once)')
  .requiredOption('--tenant <id>', 'tenant id')
  .requiredOption('--roles <list>', `comma-separated roles: ${ROLES.join(', ')}`, parseRoles)
  .option('--name <name>', 'a name to recognise the key by', 'cli key')
  .option('--expires-at <time>', 'when the key stops working (ISO 8601); default never', parseInstant)
  .action(async (options: { tenant: string; roles: Role[]; name: string; expiresAt?: Date }) => {
    const command = {
      tenantId: options.tenant,
      name: options.name,
      roles: options.roles,
      expiresAt: options.expiresAt,
    };
    // Audited with the same request an API caller would send (the time as ISO text).
    const request = {
      name: options.name,
      roles: options.roles,
      ...(options.expiresAt === undefined ? {} : { expiresAt: options.expiresAt.toISOString() }),
    };
    const created = await withUseCases((context) =>
      context
        .get(AuditTrail)
        .record({ actor: cliActor(), action: 'api_key.create', tenantId: options.tenant, request }, () =>
          context.get(CreateApiKeyUseCase).execute(command),
        ),
    );
    const expiry = created.expiresAt === null ? '' : `, expires ${created.expiresAt}`;
    console.log(`key ${created.id} roles ${created.roles.join(',')}${expiry} (shown once): ${created.key}`);
  });

program
  .command('import <file>')
  .description(
    'import a statement file for a source (camt053, camt052, camt054, mt940, mt942, bai2, csv:<profile>; ' +
      'camt052, camt054 and mt942 are interim); refused whole if any line is bad',
  )
  .requiredOption('--tenant <id>', 'tenant id')
  .requiredOption('--source <name>', "the statement source's name")
  .option(
    '--format <format>',
    'camt053, camt052, camt054, mt940, mt942, bai2 or csv:<profile> ' +
      "(default: the source's; where it has none, recognised from the file)",
  )
  .action(async (file: string, options: { tenant: string; source: string; format?: string }) => {
    const size = (await stat(file)).size;
    const bar = new ProgressBar(basename(file), size);
    const result = await withUseCases((context) =>
      context.get(ImportStatementUseCase).execute({
        tenantId: options.tenant,
        actor: cliActor(),
        source: options.source,
        format: options.format,
        fileName: basename(file),
        input: createReadStream(file, { highWaterMark: 256 * 1024 }),
        onProgress: (bytes) => bar.update(Number(bytes)),
      }),
    ).finally(() => bar.finish());
    const view = result.import;
    console.log(
      `${result.created ? 'imported' : 'already imported'}: ${view.id} as ${view.format}, ${view.lines} lines ` +
        `(${view.duplicates} already known), ${view.statements.length} statement(s)`,
    );
    for (const warning of view.warnings) console.log(`warning: ${warning}`);
  });

program
  .command('reconcile')
  .description('run the reconciler now: invariant checks, statement matching, tickets (exit 1 if a run fails)')
  .option('--tenant <id>', 'one tenant (default: all)')
  .action(async (options: { tenant?: string }) => {
    const failed = await withUseCases(async (context) => {
      const tenants = options.tenant ? [options.tenant] : await context.get(TenantReader).ids();
      let failures = 0;
      for (const tenantId of tenants) {
        try {
          const run = await context
            .get(RunReconciliationUseCase)
            .execute({ tenantId, trigger: 'cli', actor: cliActor() });
          const { opened, updated, reopened, resolved, matched } = run.stats as Record<string, unknown>;
          console.log(
            `tenant ${tenantId}: run ${run.id} in ${run.durationMs} ms; matched ${JSON.stringify(matched)}; ` +
              `tickets opened ${opened}, updated ${updated}, reopened ${reopened}, resolved ${resolved}`,
          );
        } catch (error) {
          failures++;
          console.log(`tenant ${tenantId}: run failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      return failures;
    });
    if (failed > 0) process.exitCode = 1;
  });

const journal = program.command('journal').description('the hash-chained journal');
journal
  .command('verify')
  .description('re-compute every hash chain from the stored rows; name the first broken link (exit 1 if any)')
  .option('--tenant <id>', 'one tenant (default: all)')
  .action(async (options: { tenant?: string }) => {
    const broken = await withUseCases(async (context) => {
      const tenants = options.tenant ? [options.tenant] : await context.get(TenantReader).ids();
      let failures = 0;
      for (const tenantId of tenants) {
        const result = await context.get(VerifyJournalUseCase).execute(tenantId);
        if (result.ok) {
          console.log(`tenant ${tenantId}: ok, ${result.links} links in ${result.stripes.length} stripes`);
          continue;
        }
        failures++;
        const link = result.firstBroken!;
        console.log(
          `tenant ${tenantId}: BROKEN at stripe ${link.stripe ?? '-'} seq ${link.seq ?? '-'} ` +
            `transaction ${link.transactionId ?? '-'}: ${link.reason}`,
        );
      }
      return failures;
    });
    if (broken > 0) process.exitCode = 1;
  });

registerKeyCommands(keys, withUseCases);
registerAuditCommands(program, withUseCases);

program.parseAsync().catch((error: unknown) => {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  // A refused statement names every bad line.
  const details = (error as { details?: { errors?: { line: number; reason: string }[] } }).details;
  for (const bad of details?.errors ?? []) console.error(`  line ${bad.line}: ${bad.reason}`);
  process.exit(1);
});
