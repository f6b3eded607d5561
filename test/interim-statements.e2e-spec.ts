import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { deposit, bankTenant } from './support/bank-fixtures';
import { type TestTenant, createAccount, mustPost, sqlRows } from './support/ledger-fixtures';
import { createSource, uploadStatement } from './support/reconciliation-fixtures';

// Interim reports (MT942, camt.052) and notifications (camt.054): imported through POST /v1/imports and read
// back; then the end-of-day statement with the same movements and one more: one stored line per movement,
// the interim line made final in place with its match, the counts of each import's answer right. And the
// other order: a late interim report after the statement stores nothing again.

const OK = resolve(__dirname, '..', 'fixtures', 'statements', 'ok');

let api: ApiHarness;
let tenant: TestTenant;
let key: string;

beforeAll(async () => {
  api = await startApi();
  ({ tenant, key } = await bankTenant(api, 'interim statements'));
  await createAccount(api, tenant.adminKey, { code: 'assets:bank:eur', currency: 'EUR', normalBalance: 'debit' });
  for (const [name, account, format] of [
    ['eur-camt052', 'assets:bank:eur', 'camt052'],
    ['eur-camt054', 'assets:bank:eur', 'camt054'],
    ['eur-mt942', 'assets:bank:eur', 'mt942'],
    ['usd-mt', 'assets:bank', 'mt940'],
    ['usd-camt', 'assets:bank', 'camt053'],
    ['usd-mt-late', 'assets:bank', 'mt940'],
    ['usd-camt-late', 'assets:bank', 'camt053'],
  ]) {
    await createSource(api, key, { name, account, format });
  }
});
afterAll(async () => {
  await api?.close();
});

function upload(source: string, fileName: string, content: string | Buffer, format?: string): Promise<any> {
  return uploadStatement(api, key, source, fileName, content, format);
}

async function importLines(importId: string): Promise<any[]> {
  const page = await api.request('GET', `/v1/imports/${importId}/lines?limit=200`, { key });
  expect(page.status, JSON.stringify(page.body)).toBe(200);
  return page.body.data;
}

async function sourceLines(source: string): Promise<any[]> {
  const page = await api.request('GET', `/v1/statement-lines?source=${source}&limit=200`, { key });
  expect(page.status, JSON.stringify(page.body)).toBe(200);
  return page.body.data;
}

describe('POST /v1/imports of interim formats', () => {
  for (const [source, file] of [
    ['eur-camt052', 'camt052-v06-intraday.xml'],
    ['eur-camt054', 'camt054-v08-notification.xml'],
    ['eur-mt942', 'mt942-interim.sta'],
  ]) {
    it(`${file}: stored interim as its source's format says, read back as the parser read it`, async () => {
      const made = await upload(source, file, await readFile(resolve(OK, file)));
      const expected = JSON.parse(await readFile(resolve(OK, `${file}.expected.json`), 'utf8'));
      expect(made).toMatchObject({
        format: source.slice('eur-'.length),
        interim: true,
        finalized: 0,
        duplicates: 0,
        lines: expected.lines.length,
      });
      // No closing balance is missing: an interim report is not a balance-checked statement.
      expect(made.statements.every((statement: { balanced: null }) => statement.balanced === null)).toBe(true);
      expect(made.warnings).toEqual(
        expected.statements.flatMap((statement: { statementIndex: number; warnings?: string[] }) =>
          (statement.warnings ?? []).map((warning) => `statement ${statement.statementIndex}: ${warning}`),
        ),
      );
      const lines = await importLines(made.id);
      expect(lines.map((line) => [line.externalId, line.amount, line.bookedOn, line.references, line.interim])).toEqual(
        expected.lines.map((line: any) => [line.externalId, line.amountMinor, line.bookedOn, line.references, true]),
      );
      const read = await api.request('GET', `/v1/imports/${made.id}`, { key });
      expect(read.body).toEqual(made);
    });
  }

  it('takes the format from the request over the source default', async () => {
    const file = 'camt054-v08-notification.xml';
    const text = (await readFile(resolve(OK, file), 'utf8')).replaceAll('2025031400', '2025031499');
    const made = await upload('eur-camt052', 'other.xml', text, 'camt054');
    expect(made).toMatchObject({ format: 'camt054', interim: true, lines: 3, duplicates: 0 });
  });
});

const MT942 = `:20:INTRADAY-1200
:25:US12BANK0000000001
:28C:7/1
:34F:USD0,
:13D:2503141200+0000
:61:250314C1250,00NTRFINV-0311//B0314001
:86:Credit Muster Inc
:61:250314D5,00NMSCNONREF
:86:Cash
:90D:1USD5,00
:90C:1USD1250,00
-`;

const MT940 = `:20:EOD-0314
:25:US12BANK0000000001
:28C:7/1
:60F:C250313USD100,00
:61:2503140314C1250,00NTRFINV-0311//B0314001
:86:166?00CREDIT?20EREF+INV-0311?32Muster Inc
:61:250314D5,00NMSCNONREF
:86:Cash
:61:250314C40,00NTRFNONREF//B0314009
:86:Late credit
:62F:C250314USD1385,00
-`;

function camt(kind: '052' | '053' | '054', entries: string[]): string {
  const [container, report] =
    kind === '052'
      ? ['BkToCstmrAcctRpt', 'Rpt']
      : kind === '053'
        ? ['BkToCstmrStmt', 'Stmt']
        : ['BkToCstmrDbtCdtNtfctn', 'Ntfctn'];
  const balances =
    kind === '053'
      ? '<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="USD">100.00</Amt><CdtDbtInd>CRDT</CdtDbtInd>' +
        '<Dt><Dt>2025-03-13</Dt></Dt></Bal><Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp>' +
        '<Amt Ccy="USD">1385.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2025-03-14</Dt></Dt></Bal>'
      : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.${kind}.001.04"><${container}><${report}><Id>R-${kind}</Id>
<CreDtTm>2025-03-14T18:00:00Z</CreDtTm><Acct><Id><IBAN>US12BANK0000000001</IBAN></Id><Ccy>USD</Ccy></Acct>${balances}
${entries.join('\n')}
</${report}></${container}></Document>`;
}

function camtEntry(reference: string, amount: string, indicator: 'CRDT' | 'DBIT', endToEnd: string): string {
  return `<Ntry><Amt Ccy="USD">${amount}</Amt><CdtDbtInd>${indicator}</CdtDbtInd><Sts>BOOK</Sts>
<BookgDt><Dt>2025-03-14</Dt></BookgDt><ValDt><Dt>2025-03-14</Dt></ValDt><AcctSvcrRef>${reference}</AcctSvcrRef>
<NtryDtls><TxDtls><Refs><EndToEndId>${endToEnd}</EndToEndId></Refs></TxDtls></NtryDtls></Ntry>`;
}

const CAMT_CREDIT = camtEntry('A-0314-001', '1250.00', 'CRDT', 'INV-0311');
const CAMT_CASH = camtEntry('A-0314-002', '5.00', 'DBIT', 'CASH-1');
const CAMT_LATE = camtEntry('A-0314-009', '40.00', 'CRDT', 'LATE-1');

/** A manual match of the line with a deposit of its amount: what must survive the line becoming final. */
async function matchLine(lineId: string, amount: string): Promise<string> {
  const booked = await mustPost(api, tenant.posterKey, deposit(amount));
  const match = await api.request('POST', '/v1/matches', {
    key,
    idempotencyKey: randomUUID(),
    body: { statementLines: [lineId], entries: [{ transaction: booked.id }], note: 'interim line' },
  });
  expect(match.status, JSON.stringify(match.body)).toBe(201);
  return match.body.id;
}

async function matchesOf(lineId: string): Promise<string[]> {
  const found = await api.request('GET', `/v1/matches?statementLine=${lineId}`, { key });
  expect(found.status, JSON.stringify(found.body)).toBe(200);
  return found.body.data.map((match: { id: string }) => match.id);
}

async function storedCount(source: string): Promise<number> {
  const rows = await sqlRows<{ count: string }>(
    api,
    `SELECT count(*)::text AS count FROM statement_lines l JOIN statement_sources s
        ON s.tenant_id = l.tenant_id AND s.id = l.source_id WHERE l.tenant_id = $1 AND s.name = $2`,
    [tenant.tenantId, source],
  );
  return Number(rows[0].count);
}

describe('an interim report, then the end-of-day statement with the same movements and one more', () => {
  for (const [source, interimFile, interimFormat, finalFile] of [
    ['usd-mt', MT942, 'mt942', MT940],
    ['usd-camt', camt('052', [CAMT_CREDIT, CAMT_CASH]), 'camt052', camt('053', [CAMT_CREDIT, CAMT_CASH, CAMT_LATE])],
  ] as const) {
    it(`${interimFormat}, then the statement: one line a movement, interim ones final, matched`, async () => {
      const interim = await upload(source, `intraday.${interimFormat}`, interimFile, interimFormat);
      expect(interim).toMatchObject({ interim: true, lines: 2, duplicates: 0, finalized: 0, warnings: [] });
      const interimLines = await importLines(interim.id);
      expect(interimLines.map((line) => line.interim)).toEqual([true, true]);
      const credit = interimLines.find((line) => line.amount === '125000');
      const matchId = await matchLine(credit.id, '125000');

      const final = await upload(source, 'end-of-day', finalFile);
      expect(final).toMatchObject({ interim: false, lines: 3, duplicates: 2, finalized: 2, warnings: [] });
      expect(final.statements[0].balanced).toBe(true);
      // The final import adds only the new movement; the two interim lines stay the lines they were.
      expect((await importLines(final.id)).map((line) => [line.amount, line.interim])).toEqual([['4000', false]]);
      expect(await storedCount(source)).toBe(3);
      const listed = await sourceLines(source);
      expect(listed.map((line) => line.interim)).toEqual([false, false, false]);
      const creditNow = await api.request('GET', `/v1/statement-lines/${credit.id}`, { key });
      expect(creditNow.body).toMatchObject({ id: credit.id, importId: interim.id, interim: false });
      expect(await matchesOf(credit.id)).toEqual([matchId]);
      expect(listed.find((line) => line.id === credit.id)?.matched).toBe(true);

      // The same statement again is the same file: answered by its first import.
      const again = await upload(source, 'end-of-day', finalFile);
      expect(again.id).toBe(final.id);
    });
  }
});

describe('the end-of-day statement first, then a late interim report of the same movements', () => {
  for (const [source, finalFile, interimFile, interimFormat] of [
    ['usd-mt-late', MT940, MT942, 'mt942'],
    ['usd-camt-late', camt('053', [CAMT_CREDIT, CAMT_CASH, CAMT_LATE]), camt('054', [CAMT_CREDIT]), 'camt054'],
  ] as const) {
    it(`the statement, then ${interimFormat}: nothing stored twice, the lines stay final`, async () => {
      const final = await upload(source, 'end-of-day', finalFile);
      expect(final).toMatchObject({ interim: false, lines: 3, duplicates: 0, finalized: 0 });
      const late = await upload(source, `late.${interimFormat}`, interimFile, interimFormat);
      const movements = interimFormat === 'mt942' ? 2 : 1;
      expect(late).toMatchObject({ interim: true, lines: movements, duplicates: movements, finalized: 0 });
      expect(await importLines(late.id)).toEqual([]);
      expect(await storedCount(source)).toBe(3);
      expect((await sourceLines(source)).map((line) => line.interim)).toEqual([false, false, false]);
    });
  }
});

describe('statement_lines stay append-only', () => {
  it('refuses to make a final line interim again, or to change an interim line beyond making it final', async () => {
    const [line] = await sqlRows<{ id: string }>(api, 'SELECT id FROM statement_lines WHERE tenant_id = $1 LIMIT 1', [
      tenant.tenantId,
    ]);
    await expect(
      sqlRows(api, 'UPDATE statement_lines SET interim = true WHERE tenant_id = $1 AND id = $2', [
        tenant.tenantId,
        line.id,
      ]),
    ).rejects.toThrow(/append-only/);
    const [interim] = await sqlRows<{ id: string }>(
      api,
      'SELECT id FROM statement_lines WHERE tenant_id = $1 AND interim LIMIT 1',
      [tenant.tenantId],
    );
    await expect(
      sqlRows(
        api,
        `UPDATE statement_lines SET interim = false, final_import_id = import_id, amount_minor = amount_minor + 1
          WHERE tenant_id = $1 AND id = $2`,
        [tenant.tenantId, interim.id],
      ),
    ).rejects.toThrow(/append-only/);
    await expect(
      sqlRows(api, 'DELETE FROM statement_lines WHERE tenant_id = $1 AND id = $2', [tenant.tenantId, interim.id]),
    ).rejects.toThrow(/append-only/);
  });
});
