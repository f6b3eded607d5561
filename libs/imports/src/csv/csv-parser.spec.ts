import { describe, expect, it } from 'vitest';
import { collectStatement, type CsvProfile, csvProfileSchema, parse } from '@ledger/imports';
import { GATEWAY_HEADER, generatedGatewayExport, retainedHeap, textInput } from '../../test/statement-files';

const SEMICOLON_PROFILE: CsvProfile = {
  delimiter: ';',
  headerRow: true,
  encoding: 'utf-8',
  dateFormat: 'DD.MM.YYYY',
  decimalSeparator: ',',
  thousandsSeparator: '.',
  currency: 'EUR',
  amount: { convention: 'signed', column: 'Betrag' },
  columns: { bookedOn: 'Datum', description: ['Text'] },
};

async function collectCsv(format: `csv:${string}`, text: string, csvProfiles?: Record<string, CsvProfile>) {
  return collectStatement(format, textInput(text, 11), { linesMax: 100, csvProfiles, accountId: 'gateway-acct' });
}

describe('CSV profiles as data', () => {
  it('accepts a complete profile and refuses inconsistent ones with a path', () => {
    expect(csvProfileSchema.safeParse(SEMICOLON_PROFILE).success).toBe(true);
    const cases: Array<[unknown, string]> = [
      [{ ...SEMICOLON_PROFILE, columns: { ...SEMICOLON_PROFILE.columns, currency: 'Währung' } }, 'currency'],
      [{ ...SEMICOLON_PROFILE, thousandsSeparator: ',' }, 'thousandsSeparator'],
      [{ ...SEMICOLON_PROFILE, headerRow: false }, 'columnCount'],
      [{ ...SEMICOLON_PROFILE, headerRow: false, columnCount: 3 }, 'columns'],
      [{ ...SEMICOLON_PROFILE, encoding: 'latin1' }, 'encoding'],
      [{ ...SEMICOLON_PROFILE, dateFormat: 'D/M/YY' }, 'dateFormat'],
      [{ ...SEMICOLON_PROFILE, unknownOption: true }, ''],
    ];
    for (const [profile, pathStart] of cases) {
      const result = csvProfileSchema.safeParse(profile);
      expect(result.success, JSON.stringify(profile)).toBe(false);
      expect(result.error?.issues.some((issue) => String(issue.path[0] ?? '') === pathStart)).toBe(true);
    }
  });

  it('parses with a custom profile: signed amounts with "." thousands and "," decimals', async () => {
    const text = 'Datum;Text;Betrag\n31.12.2024;Jahresabschluss;-1.234,56\n01.01.2025;Zinsen;0,01\n';
    const { lines, errors } = await collectCsv('csv:de', text, { de: SEMICOLON_PROFILE });
    expect(errors).toEqual([]);
    expect(lines.map((line) => [line.lineNumber, line.bookedOn, line.amountMinor, line.currency])).toEqual([
      [2, '2024-12-31', -123456n, 'EUR'],
      [3, '2025-01-01', 1n, 'EUR'],
    ]);
  });

  it('reports a direction value that the profile does not know', async () => {
    const profile: CsvProfile = {
      ...SEMICOLON_PROFILE,
      amount: {
        convention: 'direction',
        column: 'Betrag',
        directionColumn: 'S/H',
        creditValues: ['H'],
        debitValues: ['S'],
      },
    };
    const { errors } = await collectCsv('csv:sh', 'Datum;Text;Betrag;S/H\n01.01.2025;x;1,00;X\n', { sh: profile });
    expect(errors.map((error) => [error.lineNumber, error.reason])).toEqual([[2, 'direction "X" is none of "H", "S"']]);
  });

  it("throws at once for an unknown profile or an invalid custom profile: the caller's mistake", () => {
    expect(() => parse('csv:nope', textInput(''))).toThrow(/unknown CSV profile "nope"/);
    const broken = { ...SEMICOLON_PROFILE, delimiter: 'x' } as unknown as CsvProfile;
    expect(() => parse('csv:broken', textInput(''), { csvProfiles: { broken } })).toThrow();
  });
});

describe('gateway export', () => {
  it('keeps gross and fee beside the net amount and names the statement after options.accountId', async () => {
    const text = `${GATEWAY_HEADER}\ntxn_1,2024-03-01T09:15:02Z,,EUR,10.00,0.59,9.41,charge,ch_1,po_9,Order\n`;
    const { statements, lines } = await collectCsv('csv:gateway', text);
    expect(lines[0]).toMatchObject({
      amountMinor: 941n,
      grossMinor: 1000n,
      feeMinor: 59n,
      externalId: 'id:txn_1',
      typeCode: 'charge',
    });
    expect(lines[0].references).toEqual({ gatewayId: 'txn_1', sourceId: 'ch_1', payoutId: 'po_9' });
    expect(statements).toMatchObject([
      { format: 'csv', accountId: 'gateway-acct', currency: 'EUR', openingBalance: null, lineCount: 1 },
    ]);
  });

  it('accepts columns in any order and without the optional ones', async () => {
    const { lines, errors } = await collectCsv(
      'csv:gateway',
      'net,fee,gross,currency,created,id\n-5.00,0.00,-5.00,usd,2024-03-02,txn_2\n',
    );
    expect(errors).toEqual([]);
    expect(lines.map((line) => [line.amountMinor, line.valueOn, line.description])).toEqual([[-500n, null, '']]);
  });

  it('reports an empty file', async () => {
    expect((await collectCsv('csv:gateway', '')).errors.map((error) => error.reason)).toEqual([
      'the file is empty: no header row',
    ]);
  });
});

describe('streaming', () => {
  it('parses 200,000 generated rows with flat memory and exact totals', async () => {
    const rows = 200_000;
    let heapEarly = 0;
    let heapLate = 0;
    let count = 0;
    let netMinor = 0n;
    for await (const item of parse('csv:gateway', generatedGatewayExport(rows))) {
      if (item.kind === 'error') throw new Error(`line ${item.lineNumber}: ${item.reason}`);
      if (item.kind !== 'line') continue;
      count += 1;
      netMinor += item.amountMinor;
      if (count === 20_000) heapEarly = retainedHeap();
      if (count === rows - 1) heapLate = retainedHeap();
    }
    expect(count).toBe(rows);
    // Each full cycle of index % 100 nets 0.20 + 1.20 + ... + 99.20 = 4970.00, and 200,000 rows are 2,000 cycles.
    expect(netMinor).toBe(2000n * 497_000n);
    // Holding the 180,000 lines read in between would retain over 100 MB; streaming retains next to nothing.
    expect(heapLate - heapEarly).toBeLessThan(16 * 1024 * 1024);
  }, 120_000);
});
