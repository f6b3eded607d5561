import { createWriteStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { type Command, InvalidArgumentError } from 'commander';
import { ExportJournalUseCase, JOURNAL_FORMATS, type JournalFormat } from '@ledger/exports';
import { GetBalanceProofUseCase, IssueBalanceProofUseCase, type Verdict, verifyProof } from '@ledger/proofs';

export type UseCaseContext = { get<U>(type: new (...args: never[]) => U): U };
type WithUseCases = <T>(work: (context: UseCaseContext) => Promise<T>) => Promise<T>;

export function parseInstant(text: string): Date {
  const time = new Date(text);
  if (Number.isNaN(time.getTime())) throw new InvalidArgumentError('an ISO 8601 time, e.g. 2026-11-30T00:00:00Z');
  return time;
}

function parseFormat(text: string): JournalFormat {
  if (!(JOURNAL_FORMATS as readonly string[]).includes(text))
    throw new InvalidArgumentError(`one of: ${JOURNAL_FORMATS.join(', ')}`);
  return text as JournalFormat;
}

type JsonFile = { ok: true; value: unknown } | { ok: false; message: string };

async function readJson(file: string): Promise<JsonFile> {
  try {
    return { ok: true, value: JSON.parse(await readFile(file, 'utf8')) };
  } catch (error) {
    if (error instanceof SyntaxError) return { ok: false, message: `${file} is not JSON: ${error.message}` };
    throw error;
  }
}

async function verifyFiles(
  file: string,
  options: { account?: string; previous?: string; key?: string },
): Promise<Verdict> {
  const document = await readJson(file);
  if (!document.ok) {
    const failure = { check: 'format' as const, ok: false, detail: document.message };
    return { ok: false, checks: [failure], firstFailure: failure };
  }
  // An unreadable previous proof still fails, at the consistency check.
  const previous = options.previous === undefined ? undefined : await readJson(options.previous);
  return verifyProof(document.value, {
    account: options.account,
    previous: previous === undefined ? undefined : previous.ok ? previous.value : {},
    trustedKeyId: options.key,
  });
}

function printVerdict(verdict: Verdict): void {
  for (const check of verdict.checks)
    console.log(`${check.ok ? 'ok  ' : 'FAIL'}  ${check.check.padEnd(12)}  ${check.detail}`);
  console.log(
    verdict.ok ? 'verdict: VERIFIED' : `verdict: NOT VERIFIED (first failing check: ${verdict.firstFailure!.check})`,
  );
}

/** `ledger proof export|verify` and `ledger export journal`: what an auditor runs. */
export function registerAuditCommands(program: Command, withUseCases: WithUseCases): void {
  const proof = program.command('proof').description('signed balance proofs');
  proof
    .command('export')
    .description(
      "sign the tenant's books now (or as of a time) and write the proof as JSON; the stored proof of the same " +
        'journal position is reused',
    )
    .requiredOption('--tenant <id>', 'tenant id')
    .option('--as-of <time>', 'balances of the entries effective at or before this time (default now)', parseInstant)
    .option('--since <proofId>', 'include the journal links since this earlier proof (for --previous)')
    .option('--out <file>', 'write to this file (default stdout)')
    .action(async (options: { tenant: string; asOf?: Date; since?: string; out?: string }) => {
      const document = await withUseCases(async (context) => {
        const { checkpoint } = await context
          .get(IssueBalanceProofUseCase)
          .execute({ tenantId: options.tenant, asOf: options.asOf });
        return context
          .get(GetBalanceProofUseCase)
          .execute({ tenantId: options.tenant, proofId: checkpoint.id, since: options.since });
      });
      const text = `${JSON.stringify(document, null, 2)}\n`;
      if (options.out) await writeFile(options.out, text);
      else process.stdout.write(text);
      if (options.out)
        console.log(
          `proof ${document.id}: ${document.accounts.length} accounts, journal head ${document.journal.head}, ` +
            `written to ${options.out}`,
        );
    });
  proof
    .command('verify <file>')
    .description(
      'check a balance or inclusion proof with no database: signature, sums, tree, inclusion, consistency ' +
        '(exit 1 if any fails)',
    )
    .option('--account <account>', 'also check that this account (id or code) is counted in the totals')
    .option('--previous <file>', 'an earlier balance proof whose journal this one must extend')
    .option('--key <keyId>', 'accept only this signing key id (hex, from GET /v1/proofs/key)')
    .action(async (file: string, options: { account?: string; previous?: string; key?: string }) => {
      const verdict = await verifyFiles(file, options);
      printVerdict(verdict);
      if (!verdict.ok) process.exitCode = 1;
    });

  const exports = program.command('export').description('exports for the audit file');
  exports
    .command('journal')
    .description('stream the journal as an hledger journal (with closing balance assertions) or CSV')
    .requiredOption('--tenant <id>', 'tenant id')
    .option('--format <format>', JOURNAL_FORMATS.join(' or '), parseFormat, 'hledger')
    .option('--as-of <time>', 'entries effective at or before this time (default now)', parseInstant)
    .option('--out <file>', 'write to this file (default stdout)')
    .action(async (options: { tenant: string; format: JournalFormat; asOf?: Date; out?: string }) => {
      await withUseCases(async (context) => {
        const exported = await context
          .get(ExportJournalUseCase)
          .execute({ tenantId: options.tenant, format: options.format, asOf: options.asOf });
        const output = options.out ? createWriteStream(options.out) : process.stdout;
        for await (const chunk of exported.chunks) if (!output.write(chunk)) await once(output, 'drain');
        if (options.out) {
          output.end();
          await once(output, 'finish');
        }
      });
    });
}
