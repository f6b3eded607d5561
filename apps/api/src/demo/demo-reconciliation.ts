import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import type { INestApplicationContext } from '@nestjs/common';
import { ImportStatementUseCase } from '@ledger/imports';
import { CreateOwnerRouteUseCase, type DiscrepancyKind, RunReconciliationUseCase } from '@ledger/reconciliation';

const DAY_MS = 24 * 3600 * 1000;

const DEMO_STATEMENT = join('fixtures', 'demo', 'bank-eur-statement.csv');

/**
 * The demo's own statement (not a third-party sample), at the repository's root: four levels above this
 * file's source, five above its build in dist/. Its days are written `{D-8}`, eight days ago.
 */
export function demoStatementPath(from = __dirname): string {
  for (let directory = from, level = 0; level < 8; directory = dirname(directory), level++) {
    const candidate = resolve(directory, DEMO_STATEMENT);
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`${DEMO_STATEMENT} not found above ${from}`);
}

/** `{D-n}` as the UTC day n days before `now`. */
export function datedStatement(template: string, now: Date): string {
  return template.replace(/\{D-(\d{1,2})\}/g, (_whole, days: string) =>
    new Date(now.getTime() - Number(days) * DAY_MS).toISOString().slice(0, 10),
  );
}

/** n days before `now`, at noon UTC: the effective time of a demo posting that the statement reports. */
export function daysAgo(now: Date, days: number): string {
  const day = new Date(now.getTime() - days * DAY_MS).toISOString().slice(0, 10);
  return `${day}T12:00:00.000Z`;
}

// Who works which tickets: the people of a small finance team.
const DEMO_OWNER_ROUTES: { priority: number; kind?: DiscrepancyKind; owner: string }[] = [
  { priority: 10, kind: 'missing_in_ledger', owner: 'ana@finance' },
  { priority: 20, kind: 'amount_mismatch', owner: 'ben@finance' },
  { priority: 30, kind: 'missing_in_statement', owner: 'ben@finance' },
  { priority: 100, owner: 'ana@finance' },
];

/**
 * The owner routes, the bank statement imported and one reconciliation run, as actor `demo`: the
 * console opens on a queue with a ticket of each common kind (a bank fee the ledger never heard of, a
 * deposit booked for another amount, a payout the bank has not reported, a deposit whose statement line
 * the matcher could not pair on its own).
 */
export async function reconcileDemo(app: INestApplicationContext, tenantId: string, now: Date): Promise<void> {
  for (const route of DEMO_OWNER_ROUTES) await app.get(CreateOwnerRouteUseCase).execute({ tenantId, ...route });
  const statement = datedStatement(await readFile(demoStatementPath(), 'utf8'), now);
  await app.get(ImportStatementUseCase).execute({
    tenantId,
    actor: 'demo',
    source: 'bank-eur',
    fileName: 'bank-eur-statement.csv',
    input: Readable.from([statement]),
  });
  // The run's trigger says how it was started; its actor that the demo loader started it.
  await app.get(RunReconciliationUseCase).execute({ tenantId, trigger: 'cli', actor: 'demo' });
}
