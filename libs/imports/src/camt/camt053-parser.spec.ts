import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { balanceCheck, type CollectedStatements, collectStatement } from '@ledger/imports';
import { fileInput, textInput } from '../../test/statement-files';
import { describeWithStatementSamples, STATEMENT_SAMPLES_DIR } from '../../test/statement-samples';

const CAMT_SAMPLES = path.join(STATEMENT_SAMPLES_DIR, 'camt');
const READABLE_SAMPLES = [
  'camt053.v2.five.decimals',
  'camt053.v2.minimal',
  'camt053.v2.multi.statement',
  'camt053.v4',
  'camt053.v8',
];

// The .expected.json files are genkgo/camt's own dump of its parse: amounts are already signed minor units
// ("getAmount": "-700"), dates are instants in UTC. Only the fields that mean the same in both are compared.
interface GenkgoMoney {
  getAmount: string;
  getCurrency: { getCode: string };
}
interface GenkgoDate {
  '0': string;
}
interface GenkgoRecord {
  getId: string;
  getAccount: { getIdentification: string };
  getBalances: Array<{ getType: string; getAmount: GenkgoMoney; getDate: GenkgoDate }>;
  getEntries: unknown[];
}
interface GenkgoEntry {
  getAmount: GenkgoMoney;
  getBookingDate: GenkgoDate;
  getValueDate: GenkgoDate | null;
  getAccountServicerReference: string | null;
  getReversalIndicator: boolean;
  getTransactionDetail: { getReference: { getEndToEndId: string | null } | null } | null;
  getRecord: GenkgoRecord;
}

function expectedEntries(sample: string): GenkgoEntry[] {
  return (
    JSON.parse(readFileSync(path.join(CAMT_SAMPLES, `${sample}.expected.json`), 'utf8')) as {
      getEntries: GenkgoEntry[];
    }
  ).getEntries;
}

async function collectSample(file: string): Promise<CollectedStatements> {
  return collectStatement('camt053', fileInput(path.join(CAMT_SAMPLES, file)), { linesMax: 100 });
}

describeWithStatementSamples('camt.053 real samples', () => {
  for (const sample of READABLE_SAMPLES) {
    it(`${sample}.xml parses with the amounts, dates and references of its .expected.json`, async () => {
      const { statements, lines, errors } = await collectSample(`${sample}.xml`);
      expect(errors).toEqual([]);
      const entries = expectedEntries(sample);
      expect(entries.length).toBeGreaterThan(0);
      for (const entry of entries) {
        const record = entry.getRecord;
        const statement = statements.find((each) => each.statementId === record.getId);
        expect(statement?.accountId).toBe(record.getAccount.getIdentification);
        for (const [type, balance] of [
          ['opening', statement?.openingBalance],
          ['closing', statement?.closingBalance],
        ] as const) {
          const expected = record.getBalances.find((each) => each.getType === type);
          expect(balance).toEqual({
            amountMinor: BigInt(expected?.getAmount.getAmount ?? 'x'),
            currency: expected?.getAmount.getCurrency.getCode,
            date: expected?.getDate['0'].slice(0, 10),
          });
        }
        const linesOfStatement = lines.filter((line) => line.statementIndex === statement?.statementIndex);
        expect(linesOfStatement).toHaveLength(record.getEntries.length);
        expect(linesOfStatement[0]).toMatchObject({
          amountMinor: BigInt(entry.getAmount.getAmount),
          currency: entry.getAmount.getCurrency.getCode,
          bookedOn: entry.getBookingDate['0'].slice(0, 10),
          valueOn: entry.getValueDate?.['0'].slice(0, 10) ?? null,
          reversal: entry.getReversalIndicator,
        });
        expect(linesOfStatement[0].references.accountServicerRef).toBe(entry.getAccountServicerReference || undefined);
        expect(linesOfStatement[0].references.endToEndId).toBe(
          entry.getTransactionDetail?.getReference?.getEndToEndId || undefined,
        );
      }
    });
  }

  it('reads the five-decimals sample exactly: its extra decimals are zeros (8.850 EUR is 885)', async () => {
    const { statements, lines } = await collectSample('camt053.v2.five.decimals.xml');
    expect(lines.map((line) => line.amountMinor)).toEqual([885n]);
    expect(statements[0].closingBalance?.amountMinor).toBe(2705n);
  });

  it('reads both statements of the multi-statement sample, the first one too', async () => {
    const { statements, lines } = await collectSample('camt053.v2.multi.statement.xml');
    expect(
      statements.map((each) => [each.statementId, each.openingBalance?.amountMinor, each.closingBalance?.amountMinor]),
    ).toEqual([
      ['253EURNL26VAYB8060476890', 1815n, 2700n],
      ['254EURNL26VAYB8060476890', 2700n, 2000n],
    ]);
    expect(lines.map((line) => [line.statementIndex, line.amountMinor, line.references.endToEndId])).toEqual([
      [0, 885n, '000000001'],
      [1, -700n, '000000002'],
    ]);
    for (const statement of statements) {
      expect(
        balanceCheck(
          statement,
          lines.filter((line) => line.statementIndex === statement.statementIndex),
        ).ok,
      ).toBe(true);
    }
  });

  it('flags, without refusing, the samples whose balances do not add up', async () => {
    const fiveDecimals = await collectSample('camt053.v2.five.decimals.xml');
    expect(balanceCheck(fiveDecimals.statements[0], fiveDecimals.lines)).toMatchObject({
      ok: false,
      expectedClosingMinor: 2700n,
      actualClosingMinor: 2705n,
    });
    const v8 = await collectSample('camt053.v8.xml');
    expect(balanceCheck(v8.statements[0], v8.lines)).toMatchObject({
      ok: false,
      reason: 'balances and lines mix currencies (EUR, SEK)',
    });
  });

  it('refuses camt053.v2.wrong.xml: a statement document without a statement', async () => {
    const { errors, lines, statements } = await collectSample('camt053.v2.wrong.xml');
    expect(errors).toEqual([
      { kind: 'error', lineNumber: 3, reason: 'the camt.053 document contains no statement (Stmt)' },
    ]);
    expect([lines, statements]).toEqual([[], []]);
  });

  for (const sample of ['camt054.v4.xml', 'camt054.v8.xml']) {
    it(`refuses ${sample} as camt053, naming camt054, the format that reads it`, async () => {
      const { errors, lines } = await collectSample(sample);
      expect(errors).toHaveLength(1);
      expect(errors[0].lineNumber).toBe(2);
      expect(errors[0].reason).toMatch(/^camt\.054\.001\.0[48] is not a camt\.053 .*; import it as camt054$/);
      expect(lines).toEqual([]);
    });
  }
});

function statementXml(entries: string, prolog = '<?xml version="1.0" encoding="UTF-8"?>'): string {
  return `${prolog}
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.06"><BkToCstmrStmt><Stmt><Id>S</Id>
<Acct><Id><IBAN>NL91ABNA0417164300</IBAN></Id></Acct>
${entries}
</Stmt></BkToCstmrStmt></Document>`;
}

function entryXml(amount: string, details: string): string {
  return `<Ntry><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2024-01-02</Dt></BookgDt>
<AcctSvcrRef>REF</AcctSvcrRef><NtryDtls>${details}</NtryDtls></Ntry>`;
}

async function collectText(text: string): Promise<CollectedStatements> {
  return collectStatement('camt053', textInput(text, 5), { linesMax: 100 });
}

describe('camt.053 batch rule', () => {
  it('keeps a batch whole when its TxDtls amounts do not add up to the entry', async () => {
    const details = '<TxDtls><Amt Ccy="EUR">1.00</Amt></TxDtls><TxDtls><Amt Ccy="EUR">2.00</Amt></TxDtls>';
    const { lines, errors } = await collectText(statementXml(entryXml('4.00', details)));
    expect(errors).toEqual([]);
    expect(lines.map((line) => [line.amountMinor, line.description, line.externalId])).toEqual([
      [400n, 'batch of 2 transactions', 'acctsvcrref:REF'],
    ]);
  });

  it('keeps a batch whole when a TxDtls amount is in another currency', async () => {
    const details = '<TxDtls><Amt Ccy="USD">1.00</Amt></TxDtls><TxDtls><Amt Ccy="EUR">2.00</Amt></TxDtls>';
    const { lines } = await collectText(statementXml(entryXml('3.00', details)));
    expect(lines.map((line) => line.amountMinor)).toEqual([300n]);
  });

  it('splits a batch whose credits and debits net to the entry, each with its own sign', async () => {
    const details =
      '<TxDtls><Amt Ccy="EUR">5.00</Amt></TxDtls><TxDtls><Amt Ccy="EUR">2.00</Amt><CdtDbtInd>DBIT</CdtDbtInd></TxDtls>';
    const { lines } = await collectText(statementXml(entryXml('3.00', details)));
    expect(lines.map((line) => [line.amountMinor, line.externalId])).toEqual([
      [500n, 'acctsvcrref:REF/1'],
      [-200n, 'acctsvcrref:REF/2'],
    ]);
  });
});

describe('camt.053 refusals and limits', () => {
  it('accepts a prefixed namespace', async () => {
    const text = statementXml(entryXml('1.00', ''))
      .replace('<Document xmlns=', '<c:Document xmlns:c=')
      .replace(/<(\/?)(?!\?)(?!c:)/g, '<$1c:')
      .replace('</c:c:Document>', '</c:Document>');
    const { lines, errors } = await collectText(text);
    expect(errors).toEqual([]);
    expect(lines.map((line) => line.amountMinor)).toEqual([100n]);
  });

  it('refuses a DOCTYPE and a declared encoding other than UTF-8', async () => {
    const doctype = await collectText(statementXml('', '<?xml version="1.0"?>\n<!DOCTYPE Document [<!ENTITY x "y">]>'));
    expect(doctype.errors.map((error) => error.reason)).toEqual(['a DOCTYPE is not accepted in a camt.053 document']);
    const latin = await collectText(statementXml('', '<?xml version="1.0" encoding="ISO-8859-1"?>'));
    expect(latin.errors.map((error) => error.reason)).toEqual(['XML encoding ISO-8859-1 is not accepted; only UTF-8']);
  });

  it('refuses an empty file, an other root, and absurd nesting', async () => {
    expect((await collectText('')).errors).toHaveLength(1);
    expect((await collectText('<html><body/></html>')).errors.map((error) => error.reason)).toEqual([
      'not a camt.053 document: root element <html> in namespace ""',
    ]);
    const deep = statementXml(entryXml('1.00', `${'<X>'.repeat(50)}${'</X>'.repeat(50)}`));
    expect((await collectText(deep)).errors.map((error) => error.reason)).toEqual([
      'XML nesting deeper than 40 elements',
    ]);
  });

  it('refuses an element text over the limit, at the element', async () => {
    const text = statementXml(
      entryXml('1.00', `<TxDtls><RmtInf>\n<Ustrd>${'x'.repeat(5000)}</Ustrd></RmtInf></TxDtls>`),
    );
    const { errors, lines } = await collectText(text);
    expect(errors).toEqual([{ kind: 'error', lineNumber: 6, reason: '<Ustrd> has more than 4096 characters of text' }]);
    expect(lines).toEqual([]);
  });

  it('refuses a description longer than the line limit', async () => {
    const ustrd = `<Ustrd>${'y'.repeat(4000)}</Ustrd>`;
    const { errors } = await collectText(
      statementXml(entryXml('1.00', `<TxDtls><RmtInf>${ustrd}${ustrd}</RmtInf></TxDtls>`)),
    );
    expect(errors.map((error) => error.reason)).toEqual(['description is 8001 characters long, more than 4096']);
  });
});

describe('camt.053 memory bounds', () => {
  it('refuses one XML token longer than the limit before saxes buffers more of it', async () => {
    const text = statementXml(entryXml('1.00', `<TxDtls><AddtlTxInf>${'z'.repeat(1_200_000)}</AddtlTxInf></TxDtls>`));
    const { errors } = await collectStatement('camt053', textInput(text, 64 * 1024), { linesMax: 10 });
    expect(errors.map((error) => error.reason)).toEqual([
      'an XML text, attribute or comment is longer than 1048576 characters',
    ]);
  });

  it('refuses an entry with more elements than the limit, at the first element past it', async () => {
    const many = '<Ustrd>u</Ustrd>'.repeat(5_100);
    const { errors, lines } = await collectText(
      statementXml(entryXml('1.00', `<TxDtls><RmtInf>${many}</RmtInf></TxDtls>`)),
    );
    expect(errors.map((error) => [error.lineNumber, error.reason])).toEqual([
      [5, 'entry (Ntry) has more than 5000 XML elements'],
    ]);
    expect(lines).toEqual([]);
  });

  it('refuses an element with too many attributes, or too long ones, at its line, and reads no further', async () => {
    const nine = Array.from({ length: 9 }, (_, index) => ` b${index}=""`).join('');
    const cases: [string, string][] = [
      [`<Amt${nine}>`, '<Amt> has 9 attributes, more than 8'],
      [`<Amt Ccy="EUR" note="${'n'.repeat(1100)}">`, '<Amt> has 1110 characters of attributes, more than 1024'],
      [`<Amt ${'q'.repeat(101)}="">`, '<Amt> has an attribute name longer than 100 characters'],
    ];
    for (const [startTag, reason] of cases) {
      const entry = entryXml('1.00', '').replace('<Amt Ccy="EUR">', `\n${startTag}`);
      const { errors, lines } = await collectText(statementXml(`${entry}\n${entryXml('2.00', '')}`));
      expect(errors).toEqual([{ kind: 'error', lineNumber: 5, reason }]);
      expect(lines).toEqual([]);
    }
    const longName = statementXml(`<${'N'.repeat(101)}/>`);
    expect((await collectText(longName)).errors.map((error) => error.reason)).toEqual([
      'an element name is longer than 100 characters',
    ]);
  });

  it('refuses an entry that holds more characters than the limit, at the element past it, and reads on', async () => {
    // 4,096 characters of text and 1,000 of attributes per element: each within bounds, 20 M in 4,000.
    const element = (index: number) =>
      `<AddtlNtryInf a="${String(index).padEnd(998, 'a')}">${'t'.repeat(4096)}</AddtlNtryInf>\n`;
    const full = entryXml('1.00', '').replace(
      '<Ntry>',
      `<Ntry>\n${Array.from({ length: 4000 }, (_, i) => element(i)).join('')}`,
    );
    const text = statementXml(`${full}\n${entryXml('2.00', '')}`);
    const { errors, lines } = await collectStatement('camt053', textInput(text, 64 * 1024), { linesMax: 10 });
    // Held: the entry's own name, then each element's name, attribute name and value, and text.
    const elementsHeld = Math.floor((16 * 1024 * 1024 - 'Ntry'.length) / ('AddtlNtryInf'.length + 1 + 998 + 4096));
    expect(errors).toEqual([
      {
        kind: 'error',
        lineNumber: 5 + elementsHeld,
        reason: 'entry (Ntry) holds more than 16777216 characters of text and attributes',
      },
    ]);
    expect(lines.map((line) => line.amountMinor)).toEqual([200n]);
  }, 60_000);
});
