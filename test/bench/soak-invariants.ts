import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type pg from 'pg';
import { BUILT } from '../support/built-process';
import { checkBooks } from './checks';

// After the soak: the books of the tenant, read straight from the database, and the journal verified
// by the CLI an auditor would run. Each check answers a verdict and what it saw.

export interface InvariantCheck {
  name: string;
  ok: boolean;
  detail: string;
}

const ACKNOWLEDGED_FOUND = `
SELECT count(*)::int AS found FROM transactions WHERE tenant_id = $1 AND id = ANY($2::uuid[])`;

/** Every acknowledged externalRef with the number of transactions that carry it (unique per tenant by schema). */
const REFERENCES_FOUND = `
SELECT r.reference, count(t.id)::int AS copies
  FROM unnest($2::text[]) AS r(reference)
  LEFT JOIN transactions t ON t.tenant_id = $1 AND t.external_ref = r.reference
 GROUP BY r.reference HAVING count(t.id) <> 1`;

async function booksChecks(pool: pg.Pool, tenantId: string): Promise<InvariantCheck[]> {
  const books = await checkBooks(pool, 'soak tenant', tenantId);
  const nets = Object.entries(books.netByCurrency)
    .map(([currency, net]) => `${currency} ${net}`)
    .join(', ');
  return [
    {
      name: 'trial balance is zero per currency',
      ok: Object.values(books.netByCurrency).every((net) => net === '0'),
      detail: `sum(posted_debits - posted_credits): ${nets}`,
    },
    {
      name: 'no non-allowNegative account below zero',
      ok: books.negativeAccounts === 0,
      detail: `${books.negativeAccounts} negative`,
    },
    {
      name: 'account totals, versions and running balances agree with entries',
      ok: books.accountsDisagreeingWithEntries === 0,
      detail: `${books.accountsDisagreeingWithEntries} accounts disagree`,
    },
  ];
}

async function acknowledgedChecks(
  pool: pg.Pool,
  tenantId: string,
  acknowledged: ReadonlyMap<string, string | null>,
): Promise<InvariantCheck[]> {
  const ids = [...acknowledged.keys()];
  const references = [...acknowledged.values()].filter((reference): reference is string => reference !== null);
  const found = (await pool.query<{ found: number }>(ACKNOWLEDGED_FOUND, [tenantId, ids])).rows[0]!.found;
  const wrong = (await pool.query<{ reference: string; copies: number }>(REFERENCES_FOUND, [tenantId, references]))
    .rows;
  return [
    {
      name: 'every acknowledged transaction is stored',
      ok: found === ids.length,
      detail: `${found} of ${ids.length} found`,
    },
    {
      name: 'every acknowledged externalRef is stored exactly once',
      ok: wrong.length === 0,
      detail:
        wrong.length === 0
          ? `${references.length} references, each once`
          : `${wrong.length} wrong, e.g. ${wrong
              .slice(0, 5)
              .map((row) => `${row.reference} x${row.copies}`)
              .join(', ')}`,
    },
  ];
}

/** `ledger journal verify --tenant <id>`: re-computes every hash chain from the stored rows. */
async function journalCheck(databaseUrl: string, tenantId: string): Promise<InvariantCheck> {
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [BUILT.cli, 'journal', 'verify', '--tenant', tenantId],
      { env: { ...process.env, DATABASE_URL: databaseUrl }, timeout: 120_000 },
    );
    return { name: 'journal verifies', ok: true, detail: stdout.trim() };
  } catch (error) {
    const output = (error as { stdout?: string }).stdout ?? '';
    return {
      name: 'journal verifies',
      ok: false,
      detail: `${output.trim()} ${error instanceof Error ? error.message : String(error)}`.slice(0, 500),
    };
  }
}

export async function checkSoakInvariants(
  pool: pg.Pool,
  databaseUrl: string,
  tenantId: string,
  acknowledged: ReadonlyMap<string, string | null>,
): Promise<InvariantCheck[]> {
  return [
    ...(await booksChecks(pool, tenantId)),
    ...(await acknowledgedChecks(pool, tenantId, acknowledged)),
    await journalCheck(databaseUrl, tenantId),
  ];
}
