import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectStatement, isInterimFormat, type StatementFormat } from '@ledger/imports';
import { fileInput, textInput } from '../test/statement-files';
import { describeWithStatementSamples, STATEMENT_SAMPLES_DIR } from '../test/statement-samples';

async function collectText(format: StatementFormat, text: string) {
  return collectStatement(format, textInput(text), { linesMax: 100, charset: 'windows-1252' });
}

// The same movements, first as the bank's 12:00 MT942 interim report, then in its end-of-day MT940: the
// narrative is worded differently and the entry date is given only in the statement.
const INTERIM_MT942 = `:20:INTRADAY-1200
:25:DE89370400440532013000
:28C:73/1
:34F:EUR0,
:13D:2503141200+0100
:61:250314C1250,00NTRFINV-0311//B0314001
:86:Gutschrift Muster GmbH
:61:250314D9,90NCHGNONREF//B0314002
:86:Fee
:61:250314D9,90NCHGNONREF//B0314002
:86:Fee
:61:250314D5,00NMSCNONREF
:86:Cash
:90D:3EUR24,80
:90C:1EUR1250,00
-`;

const FINAL_MT940 = `:20:EOD-0314
:25:DE89370400440532013000
:28C:73/1
:60F:C250313EUR100,00
:61:2503140314C1250,00NTRFINV-0311//B0314001
:86:166?00SEPA-GUTSCHRIFT?20EREF+INV-0311?32Muster GmbH
:61:2503140314D9,90NCHGNONREF//B0314002
:86:Account fee
:61:2503140314D9,90NCHGNONREF//B0314002
:86:Account fee
:61:2503140314D9,90NCHGNONREF//B0314002
:86:Account fee
:61:250314D5,00NMSCNONREF
:86:Cash
:61:250314C40,00NTRFNONREF//B0314009
:86:Late credit
:62F:C250314EUR1355,30
-`;

describe('interim formats', () => {
  it('are camt052, camt054 and mt942, not the end-of-day statements', () => {
    expect(['camt052', 'camt054', 'mt942', 'camt053', 'mt940', 'csv:bank'].map(isInterimFormat)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('give a movement with a :61: bank reference the same id in the MT942 and the later MT940', async () => {
    const interim = await collectText('mt942', INTERIM_MT942);
    const final = await collectText('mt940', FINAL_MT940);
    expect([interim.errors, final.errors]).toEqual([[], []]);
    const interimIds = interim.lines.map((line) => line.externalId);
    const finalIds = final.lines.map((line) => line.externalId);
    // The credit, the two fees seen at noon (occurrences 1 and 2) and the cash line without bank reference
    // whose content is the same in both: all four are in the statement again; the third fee and the late
    // credit are new.
    expect(interimIds.map((id) => finalIds.includes(id))).toEqual([true, true, true, true]);
    expect(finalIds.filter((id) => !interimIds.includes(id))).toEqual([finalIds[3], finalIds[5]]);
    expect(interimIds.slice(0, 3).every((id) => id.startsWith('mtref:'))).toBe(true);
    expect(interimIds[1]).toMatch(/:1$/);
    expect(interimIds[2]).toMatch(/:2$/);
    expect(interimIds[3]).toMatch(/^sha256:/);
  });

  it('keeps the credit and the debit that share one bank reference apart', async () => {
    // The late credit given the fees' reference and amount: a refund of one fee, as banks book it.
    const text = FINAL_MT940.replace('C40,00NTRFNONREF//B0314009', 'C9,90NTRFNONREF//B0314002');
    const { lines, errors } = await collectText('mt940', text);
    expect(errors).toEqual([]);
    expect(new Set(lines.map((line) => line.externalId)).size).toBe(lines.length);
  });

  it('reads an MT942 report with no line but its totals, without a balance warning', async () => {
    const text =
      ':20:EMPTY\n:25:DE89370400440532013000\n:34F:EUR0,\n:13D:2503140800+0100\n:90D:0EUR0,\n:90C:0EUR0,\n-\n';
    const { statements, lines, errors } = await collectText('mt942', text);
    expect([errors, lines]).toEqual([[], []]);
    expect(statements).toMatchObject([{ format: 'mt942', currency: 'EUR', openingBalance: null, lineCount: 0 }]);
    expect(statements[0].warnings).toBeUndefined();
  });

  it('refuses an MT942 read as MT940 at its first MT942 tag', async () => {
    const { errors } = await collectText('mt940', INTERIM_MT942);
    expect(errors[0]).toEqual({ kind: 'error', lineNumber: 4, reason: 'unknown tag :34F: in an MT940 statement' });
  });
});

function camtDocument(message: string, container: string, report: string, entry: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.${message}"><${container}><${report}><Id>R</Id>
<Acct><Id><IBAN>DE89370400440532013000</IBAN></Id></Acct>
${entry}
</${report}></${container}></Document>`;
}

const UNDATED_ENTRY = '<Ntry><Amt Ccy="EUR">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts></Ntry>';

describe('camt document kinds', () => {
  it('refuses a camt.053 read as camt052 at its root, naming camt053', async () => {
    const { errors, lines } = await collectText('camt052', camtDocument('053.001.02', 'BkToCstmrStmt', 'Stmt', ''));
    expect(lines).toEqual([]);
    expect(errors).toEqual([
      {
        kind: 'error',
        lineNumber: 2,
        reason:
          'camt.053.001.02 is not a camt.052 bank-to-customer account report (versions 02 to 08); import it as camt053',
      },
    ]);
  });

  it('refuses a version it does not know without naming another format', async () => {
    const { errors } = await collectText('camt054', camtDocument('054.001.09', 'BkToCstmrDbtCdtNtfctn', 'Ntfctn', ''));
    expect(errors.map((error) => error.reason)).toEqual([
      'camt.054.001.09 is not a camt.054 bank-to-customer debit/credit notification (versions 02 to 08)',
    ]);
  });

  it('refuses the container of another kind inside the right namespace', async () => {
    const { errors } = await collectText('camt052', camtDocument('052.001.06', 'BkToCstmrStmt', 'Stmt', ''));
    expect(errors.map((error) => error.reason)).toEqual([
      'expected <BkToCstmrAcctRpt> inside <Document>, found <BkToCstmrStmt>',
    ]);
  });

  it('refuses an undated booked entry of a report that gives no date of its own either', async () => {
    const { errors } = await collectText(
      'camt054',
      camtDocument('054.001.08', 'BkToCstmrDbtCdtNtfctn', 'Ntfctn', UNDATED_ENTRY),
    );
    expect(errors.map((error) => error.reason)).toEqual(['entry (Ntry) has no booking date (BookgDt)']);
  });

  it('still refuses an undated entry in a camt.053 statement, whose report date does not stand in', async () => {
    const statement = camtDocument('053.001.08', 'BkToCstmrStmt', 'Stmt', UNDATED_ENTRY).replace(
      '<Id>R</Id>',
      '<Id>R</Id><CreDtTm>2025-03-14T12:00:00Z</CreDtTm>',
    );
    const { errors } = await collectText('camt053', statement);
    expect(errors.map((error) => error.reason)).toEqual(['entry (Ntry) has no booking date (BookgDt)']);
  });
});

// genkgo/camt's dump of its own parse: signed minor units, dates as UTC instants, PDNG entries included.
interface GenkgoEntry {
  getStatus: string;
  getAmount: { getAmount: string; getCurrency: { getCode: string } };
  getBookingDate: { '0': string } | null;
  getValueDate: { '0': string } | null;
  getAccountServicerReference: string | null;
  getRecord: { getId: string; getAccount: { getIdentification: string } };
}

const CAMT_SAMPLES = path.join(STATEMENT_SAMPLES_DIR, 'camt');
const INTERIM_CAMT_SAMPLES: Array<[StatementFormat, string]> = [
  ['camt052', 'camt052.v2.with-account-name'],
  ['camt052', 'camt052.v4'],
  ['camt052', 'camt052.v6'],
  ['camt052', 'camt052.v6.Amt-zero'],
  ['camt054', 'camt054.v2.with-account-name'],
  ['camt054', 'camt054.v4'],
  ['camt054', 'camt054.v8'],
];

describeWithStatementSamples('camt.052 and camt.054 real samples', () => {
  for (const [format, sample] of INTERIM_CAMT_SAMPLES) {
    it(`${sample}.xml reads as ${format}: its booked entries, as its .expected.json has them`, async () => {
      const { statements, lines, errors } = await collectStatement(
        format,
        fileInput(path.join(CAMT_SAMPLES, `${sample}.xml`)),
        { linesMax: 100 },
      );
      expect(errors).toEqual([]);
      const entries = (
        JSON.parse(readFileSync(path.join(CAMT_SAMPLES, `${sample}.expected.json`), 'utf8')) as {
          getEntries: GenkgoEntry[];
        }
      ).getEntries;
      expect(entries.length).toBeGreaterThan(0);
      // A pending entry is not booked yet: the end-of-day statement brings it when it is.
      const booked = entries.filter((entry) => entry.getStatus === 'BOOK');
      expect(lines).toHaveLength(booked.length);
      for (const [index, entry] of booked.entries()) {
        expect(statements[lines[index].statementIndex]).toMatchObject({
          format,
          statementId: entry.getRecord.getId,
          accountId: entry.getRecord.getAccount.getIdentification,
          openingBalance: null,
          closingBalance: null,
        });
        // Where the sample gives no booking date, the line is booked on the report's own date (CreDtTm).
        expect(lines[index]).toMatchObject({
          amountMinor: BigInt(entry.getAmount.getAmount),
          currency: entry.getAmount.getCurrency.getCode,
          bookedOn: entry.getBookingDate?.['0'].slice(0, 10) ?? '2007-10-18',
          valueOn: entry.getValueDate?.['0'].slice(0, 10) ?? null,
        });
        expect(lines[index].references.accountServicerRef).toBe(entry.getAccountServicerReference ?? undefined);
      }
      expect(statements.every((statement) => statement.warnings === undefined)).toBe(true);
    });
  }

  it('mBank-mt942.sta reads as mt942: three credits of 0,01 PLN with bank references, totals that match', async () => {
    const { statements, lines, errors } = await collectStatement(
      'mt942',
      fileInput(path.join(STATEMENT_SAMPLES_DIR, 'mt940', 'wolph', 'mBank-mt942.sta')),
      { linesMax: 100, charset: 'windows-1252' },
    );
    expect(errors).toEqual([]);
    expect(statements).toMatchObject([
      {
        format: 'mt942',
        accountId: 'PL29114010810000267002001002',
        statementId: 'ST170119CYC/0001',
        currency: 'PLN',
        openingBalance: null,
        closingBalance: null,
        lineCount: 3,
      },
    ]);
    expect(statements[0].warnings).toBeUndefined();
    expect(
      lines.map((line) => [line.bookedOn, line.amountMinor, line.currency, line.references.bankReference]),
    ).toEqual([
      ['2017-01-19', 1n, 'PLN', 'MB170119012058'],
      ['2017-01-19', 1n, 'PLN', 'MB170119012085'],
      ['2017-01-19', 1n, 'PLN', 'MB170119012121'],
    ]);
    expect(lines.every((line) => line.externalId.startsWith('mtref:'))).toBe(true);
  });
});
