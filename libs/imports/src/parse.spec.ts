import { describe, expect, it } from 'vitest';
import {
  balanceCheck,
  balanceProblem,
  collectStatement,
  parse,
  parseBatches,
  PARSE_ERRORS_MAX,
  type StatementFormat,
  type StatementHeader,
  type StatementInput,
} from '@ledger/imports';
import { GATEWAY_HEADER, generatedGatewayExport, retainedHeap, textInput } from '../test/statement-files';

async function* bytes(...chunks: number[][]): AsyncGenerator<Buffer> {
  for (const chunk of chunks) yield Buffer.from(chunk);
}

function header(overrides: Partial<StatementHeader>): StatementHeader {
  return {
    kind: 'statement',
    format: 'mt940',
    statementIndex: 0,
    lineNumber: 1,
    accountId: 'A',
    statementId: null,
    sequenceNumber: null,
    electronicSequenceNumber: null,
    currency: 'EUR',
    openingBalance: { amountMinor: 1000n, currency: 'EUR', date: '2024-01-01' },
    closingBalance: { amountMinor: 1250n, currency: 'EUR', date: '2024-01-02' },
    lineCount: 0,
    ...overrides,
  };
}

describe('parse()', () => {
  it('throws at once for an unknown format', () => {
    expect(() => parse('pdf' as StatementFormat, textInput(''))).toThrow(/unknown statement format "pdf"/);
  });

  it('refuses input that is not UTF-8, at the line of the bad byte, and stops', async () => {
    const latin1 = bytes([...Buffer.from(':20:X\n:25:A\n'), 0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72, 0x0a]);
    const { errors } = await collectStatement('mt940', latin1, { linesMax: 10 });
    expect(errors).toEqual([
      { kind: 'error', lineNumber: 3, reason: 'the file is not valid UTF-8 text (only UTF-8 is accepted)' },
    ]);
  });

  it('refuses a NUL character in any format, at its line, and stops', async () => {
    const files: [StatementFormat, string][] = [
      [
        'csv:gateway',
        `${GATEWAY_HEADER}\n${'txn_1,2024-03-01,2024-03-03,usd,1.00,0.00,1.00,charge,,,a\n'}txn_2\u0000\n`,
      ],
      ['mt940', ':20:X\n:25:A\n:28C:1\u0000\n'],
      ['camt053', '<?xml version="1.0"?>\n<!-- a comment -->\n<!-- \u0000 -->'],
    ];
    for (const [format, text] of files) {
      const { errors } = await collectStatement(format, textInput(text, 3), { linesMax: 10 });
      expect(errors, format).toEqual([
        {
          kind: 'error',
          lineNumber: 3,
          reason: 'the line has a NUL character (U+0000): the file is binary or UTF-16, not text',
        },
      ]);
    }
  });

  it('gives the event loop turns while it parses, even when no input waits for I/O', async () => {
    let turns = 0;
    let counting = true;
    const count = (): void => {
      turns += 1;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    let chars = 0;
    async function* measured(): AsyncGenerator<string> {
      for await (const chunk of generatedGatewayExport(20_000)) {
        chars += chunk.length;
        yield chunk;
      }
    }
    let lines = 0;
    for await (const item of parse('csv:gateway', measured())) if (item.kind === 'line') lines += 1;
    counting = false;
    expect(lines).toBe(20_000);
    // A turn once 64 Ki characters have passed since the last: slices are at most 64 Ki, so within 128 Ki.
    expect(turns).toBeGreaterThanOrEqual(Math.floor(chars / (128 * 1024)));
  });

  it('reads a UTF-8 character split across chunks, and drops a byte order mark', async () => {
    const name = Buffer.from('Müller');
    const text = [
      ...Buffer.from('\uFEFFdate,value date,description,amount,currency,reference,counterparty\n2024-01-02,,'),
      ...name.subarray(0, 2),
    ];
    const rest = [...name.subarray(2), ...Buffer.from(',1.00,EUR,,\n')];
    const { lines, errors } = await collectStatement('csv:bank', bytes(text, rest), { linesMax: 10 });
    expect(errors).toEqual([]);
    expect(lines.map((line) => line.description)).toEqual(['Müller']);
  });

  it(`stops after ${PARSE_ERRORS_MAX} errors`, async () => {
    const { errors } = await collectStatement('mt940', textInput('x\n'.repeat(PARSE_ERRORS_MAX + 50), 4096), {
      linesMax: 10,
    });
    expect(errors).toHaveLength(PARSE_ERRORS_MAX + 1);
    expect(errors.at(-1)).toEqual({
      kind: 'error',
      lineNumber: PARSE_ERRORS_MAX,
      reason: `more than ${PARSE_ERRORS_MAX} errors; stopped reading the file`,
    });
  });
});

describe('collectStatement()', () => {
  const bankCsv = (rows: number): StatementInput =>
    textInput(
      'date,value date,description,amount,currency,reference,counterparty\n' +
        '2024-01-02,,x,1.00,EUR,,\n'.repeat(rows),
      64,
    );

  it('keeps at most linesMax lines and says so', async () => {
    const { lines, errors } = await collectStatement('csv:bank', bankCsv(5), { linesMax: 3 });
    expect(lines).toHaveLength(3);
    expect(errors).toEqual([
      { kind: 'error', lineNumber: 5, reason: 'more than 3 statement lines; stream the file with parse() instead' },
    ]);
  });

  it('gives identical rows of one statement distinct, stable ids', async () => {
    const first = await collectStatement('csv:bank', bankCsv(3), { linesMax: 10, accountId: 'A' });
    const again = await collectStatement('csv:bank', bankCsv(2), { linesMax: 10, accountId: 'A' });
    const other = await collectStatement('csv:bank', bankCsv(1), { linesMax: 10, accountId: 'B' });
    const ids = first.lines.map((line) => line.externalId);
    expect(new Set(ids).size).toBe(3);
    expect(ids.map((id) => id.replace(/^sha256:[0-9a-f]{32}:/, ''))).toEqual(['1', '2', '3']);
    expect(again.lines.map((line) => line.externalId)).toEqual(ids.slice(0, 2));
    expect(other.lines[0].externalId).not.toBe(ids[0]);
  });
});

describe('balanceCheck()', () => {
  const line = (amountMinor: bigint, currency = 'EUR') => ({ statementIndex: 0, amountMinor, currency });

  it('passes when opening plus lines is the closing balance, also from running totals', () => {
    expect(balanceCheck(header({}), [line(300n), line(-50n)])).toEqual({
      ok: true,
      expectedClosingMinor: 1250n,
      actualClosingMinor: 1250n,
    });
    expect(balanceCheck(header({}), [line(250n)]).ok).toBe(true);
  });

  it('reports a gap, missing balances and mixed currencies', () => {
    expect(balanceCheck(header({}), [line(200n)])).toMatchObject({
      ok: false,
      expectedClosingMinor: 1200n,
      actualClosingMinor: 1250n,
    });
    expect(balanceCheck(header({ openingBalance: null, closingBalance: null }), [])).toMatchObject({
      ok: false,
      reason: 'the statement has no opening and closing balances',
    });
    expect(balanceCheck(header({}), [line(250n, 'USD')])).toMatchObject({
      ok: false,
      reason: 'balances and lines mix currencies (EUR, USD)',
    });
  });

  it('reports no missing balances for an interim report, which has none by design', () => {
    const bare = { openingBalance: null, closingBalance: null };
    expect(balanceProblem(header({ ...bare, format: 'mt942' }), [line(5n)])).toBeUndefined();
    expect(balanceProblem(header({ ...bare, format: 'camt054' }), [line(5n)])).toBeUndefined();
    expect(balanceProblem(header({ ...bare, format: 'mt940' }), [line(5n)])).toBe(
      'the statement has no opening and closing balances',
    );
    expect(balanceProblem(header({}), [line(200n)])).toMatch(/but the closing balance is/);
    expect(balanceProblem(header({}), [line(250n)])).toBeUndefined();
  });

  it('refuses lines of another statement as a programming error', () => {
    expect(() => balanceCheck(header({}), [{ statementIndex: 1, amountMinor: 1n, currency: 'EUR' }])).toThrow(
      /another statement/,
    );
  });
});

describe('camt.053 streaming', () => {
  async function* bigStatement(entries: number): AsyncGenerator<string> {
    yield '<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">' +
      '<BkToCstmrStmt><Stmt><Id>BIG</Id>';
    yield '<Acct><Id><IBAN>NL91ABNA0417164300</IBAN></Id></Acct>\n';
    for (let index = 1; index <= entries; index += 1) {
      yield `<Ntry><Amt Ccy="EUR">1.0${index % 10}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts>` +
        `<BookgDt><Dt>2024-01-02</Dt></BookgDt><AcctSvcrRef>R${index}</AcctSvcrRef></Ntry>\n`;
    }
    yield '</Stmt></BkToCstmrStmt></Document>\n';
  }

  it('reads 50,000 entries with flat memory and line numbers', async () => {
    let count = 0;
    let sumMinor = 0n;
    let heapEarly = 0;
    let heapLate = 0;
    for await (const item of parse('camt053', bigStatement(50_000))) {
      if (item.kind === 'error') throw new Error(item.reason);
      if (item.kind !== 'line') continue;
      count += 1;
      sumMinor += item.amountMinor;
      expect(item.lineNumber).toBe(count + 1);
      if (count === 5_000) heapEarly = retainedHeap();
      if (count === 49_999) heapLate = retainedHeap();
    }
    expect(count).toBe(50_000);
    expect(sumMinor).toBe(50_000n * 100n + 5_000n * 45n);
    expect(heapLate - heapEarly).toBeLessThan(16 * 1024 * 1024);
  }, 120_000);

  it('hands the lines of a batch entry of 1,200 TxDtls over in steps of at most 500', async () => {
    const details = Array.from(
      { length: 1_200 },
      (_, index) => `<TxDtls><Refs><EndToEndId>E${index}</EndToEndId></Refs><Amt Ccy="EUR">1.00</Amt></TxDtls>`,
    );
    const text =
      '<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>' +
      '<Stmt><Id>S</Id><Acct><Id><IBAN>NL91ABNA0417164300</IBAN></Id></Acct><Ntry><Amt Ccy="EUR">1200.00</Amt>' +
      '<CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2024-01-02</Dt></BookgDt><AcctSvcrRef>B</AcctSvcrRef>' +
      `<NtryDtls>${details.join('')}</NtryDtls></Ntry></Stmt></BkToCstmrStmt></Document>`;
    const steps: number[] = [];
    const endToEndIds: (string | undefined)[] = [];
    for await (const items of parseBatches('camt053', textInput(text, 64 * 1024))) {
      steps.push(items.length);
      for (const item of items) if (item.kind === 'line') endToEndIds.push(item.references.endToEndId);
    }
    expect(Math.max(...steps)).toBeLessThanOrEqual(500);
    expect(endToEndIds).toEqual(Array.from({ length: 1_200 }, (_, index) => `E${index}`));
  });
});
