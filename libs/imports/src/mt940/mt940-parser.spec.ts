import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { balanceCheck, type CollectedStatements, collectStatement } from '@ledger/imports';
import { fileInput, textInput } from '../../test/statement-files';
import { describeWithStatementSamples, STATEMENT_SAMPLES_DIR } from '../../test/statement-samples';

const MT940_SAMPLES = path.join(STATEMENT_SAMPLES_DIR, 'mt940');

async function collectSample(file: string): Promise<CollectedStatements> {
  return collectStatement('mt940', fileInput(path.join(MT940_SAMPLES, file)), { linesMax: 1000 });
}

async function collectText(text: string): Promise<CollectedStatements> {
  return collectStatement('mt940', textInput(text, 3), { linesMax: 100 });
}

function addsUp(collected: CollectedStatements): boolean[] {
  return collected.statements.map(
    (statement) =>
      balanceCheck(
        statement,
        collected.lines.filter((line) => line.statementIndex === statement.statementIndex),
      ).ok,
  );
}

describeWithStatementSamples('MT940 real samples', () => {
  it('jejik/abnamro.sta: bank envelope lines, :28:, :60M:/:62M:, free-text :86: over several lines', async () => {
    const collected = await collectSample('jejik/abnamro.sta');
    expect(collected.errors).toEqual([]);
    expect(
      collected.statements.map((each) => [
        each.accountId,
        each.sequenceNumber,
        each.openingBalance?.amountMinor,
        each.closingBalance?.amountMinor,
      ]),
    ).toEqual([
      ['517852257', '19321/1', 323628n, 87684n],
      ['517852257', '19322/1', 287684n, 184975n],
    ]);
    expect(collected.lines.map((line) => line.amountMinor)).toEqual([
      -900n,
      -1159n,
      -1163n,
      -1180n,
      -1345n,
      -1549n,
      -10700n,
      -14148n,
      -949n,
      -1500n,
    ]);
    expect(collected.lines[1]).toMatchObject({
      lineNumber: 12,
      valueOn: '2011-05-21',
      bookedOn: '2011-05-23',
      typeCode: 'N426',
    });
    expect(collected.lines[0].description).toBe(
      'GIRO   428428 KPN - DIGITENNE    BETALINGSKENM.  000000042188659 5314606715' +
        '                       BETREFT FACTUUR D.D. 20-05-2011 INCL. 1,44 BTW',
    );
  });

  it('jejik/ing.sta: ING header lines, UTF-8 text, statement-level :86: after :62F:, -XXX trailer', async () => {
    const collected = await collectSample('jejik/ing.sta');
    expect(collected.errors).toEqual([]);
    expect(collected.statements[0]).toMatchObject({
      accountId: '0001234567',
      statementId: 'MPBZ',
      currency: 'EUR',
      lineCount: 7,
    });
    expect(collected.lines.map((line) => line.amountMinor)).toEqual([-2503n, -303n, -111n, -2000n, -110n, 368n, 100n]);
    expect(collected.lines[2].references).toEqual({ customerReference: 'TMG TANGO' });
  });

  it('jejik/rabobank.sta: zero-padded amounts, several :86: per line, name after the reference', async () => {
    const collected = await collectSample('jejik/rabobank.sta');
    expect(collected.errors).toEqual([]);
    expect(collected.statements.map((each) => each.lineCount)).toEqual([1, 0, 2, 2]);
    expect(collected.lines.map((line) => line.amountMinor)).toEqual([-121328n, -4495n, -23656n, -8810n, -620n]);
    expect(collected.lines[0]).toMatchObject({
      references: { customerReference: '0121470966' },
      description: 'Terugboeking NIET AKKOORD MET AFSCHRIJVING KOSTEN KINDEROPVANG JUNI 20095731 W.P. Jansen',
    });
    expect(addsUp(collected)).toEqual([false, true, false, true]);
  });

  it('jejik/triodos.sta: ">NN" structured :86:', async () => {
    const collected = await collectSample('jejik/triodos.sta');
    expect(collected.errors).toEqual([]);
    expect(collected.lines.map((line) => [line.amountMinor, line.description, line.counterparty?.account])).toEqual([
      [-1570n, 'ALGEMENE TUSSENREKENING KOSTEN VAN 01-10-2010 TOT EN MET 31-12-2010', '0390123456'],
      [-70000n, 'HUUR KANTOOR - FEB 2010', undefined],
    ]);
  });

  it('betterplace/sepa_mt9401.sta: 26 statements that all add up, RC read as a debit, funds code R', async () => {
    const collected = await collectSample('betterplace/sepa_mt9401.sta');
    expect(collected.errors).toEqual([]);
    expect(collected.statements).toHaveLength(26);
    expect(collected.lines).toHaveLength(97);
    expect(addsUp(collected).every((ok) => ok)).toBe(true);
    const reversal = collected.lines.find((line) => line.reversal);
    expect(reversal).toMatchObject({ lineNumber: 19, amountMinor: -20488n, typeCode: 'NRTI/079' });
    expect(collected.lines[0]).toMatchObject({
      amountMinor: 30000n,
      references: {
        endToEndId: 'TFNR 40005 00005',
        customerReference: 'TFNr 40005 MSGID',
        bankReference: '0724710345313905',
      },
      description: 'RETOURE MTLG:Grund nicht spezifiziert Reject aus SEPA-Ueberweisungsauftrag',
    });
  });

  const amountFormats =
    'betterplace/amount_formats.sta: each amount form reads exactly inside a statement; the fragment alone is refused';
  it(amountFormats, async () => {
    const sample = readFileSync(path.join(MT940_SAMPLES, 'betterplace/amount_formats.sta'), 'utf8')
      .split('\n')
      .filter((line) => line !== '');
    const openings: bigint[] = [];
    for (const line of sample) {
      const collected = await collectText(`:20:X\n:25:ACCOUNT\n:28C:1\n${line}\n:62F:C100318EUR0,\n`);
      expect(collected.errors).toEqual([]);
      openings.push(collected.statements[0].openingBalance?.amountMinor ?? -1n);
    }
    expect(openings).toEqual([38011512n, 38011510n, 38011500n, 12n, 12n, 112n]);
    const whole = await collectSample('betterplace/amount_formats.sta');
    expect(whole.errors.map((error) => error.lineNumber)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('betterplace/empty_86.sta: an :86: fragment outside any statement is refused', async () => {
    const collected = await collectSample('betterplace/empty_86.sta');
    expect(collected.errors).toEqual([
      { kind: 'error', lineNumber: 1, reason: 'tag :86: outside a statement (a statement starts with :20:)' },
    ]);
  });

  it('wolph/february_30.sta: the German 30 February value date is the last day of February', async () => {
    const collected = await collectSample('wolph/february_30.sta');
    expect(collected.errors).toEqual([]);
    expect(collected.lines).toHaveLength(1);
    expect(collected.lines[0]).toMatchObject({
      valueOn: '2016-02-29',
      bookedOn: '2016-03-01',
      amountMinor: -600n,
      description: 'ENTGELTABSCHLUSS Pauschalen',
    });
    expect(addsUp(collected)).toEqual([true]);
  });

  it('wolph/invalid_statement.sta is refused, every line reported', async () => {
    const collected = await collectSample('wolph/invalid_statement.sta');
    expect(collected.errors.map((error) => error.lineNumber)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(collected.statements).toEqual([]);
  });

  it('wolph/multiline.sta: the statement reads; the :61: appended after its end (line 38) is refused', async () => {
    const collected = await collectSample('wolph/multiline.sta');
    expect(collected.errors).toEqual([
      { kind: 'error', lineNumber: 38, reason: 'tag :61: outside a statement (a statement starts with :20:)' },
    ]);
    expect(collected.lines).toHaveLength(1);
    expect(collected.lines[0]).toMatchObject({
      amountMinor: -500n,
      references: { customerReference: 'REFERENCE DO 111', bankReference: 'MUL0408041114005' },
      counterparty: {
        name: 'NOM DU DO / BENEFICIAIRE 11NOM DU DO / BENEFICIAIRE 22',
        account: 'NUMERO DE COMPTE01234567',
      },
    });
    expect(collected.lines[0].description).toMatch(
      /^VIREMENT111111111111111111X LIGNE1111.*\/OCMT\/EUR4,5\/\/IACC\/D3\/$/,
    );
    expect(addsUp(collected)).toEqual([true]);
  });

  const multiline =
    'the :61: of multiline.sta reads inside a statement: slash in the bank reference, supplementary line';
  it(multiline, async () => {
    const sample = readFileSync(path.join(MT940_SAMPLES, 'wolph/multiline.sta'), 'utf8').split('\n');
    const collected = await collectText(
      `:20:X\n:25:A\n:60F:C221219EUR0,\n${sample[37]}\n${sample[38]}\n:62F:C221220EUR119,\n`,
    );
    expect(collected.errors).toEqual([]);
    expect(collected.lines[0]).toMatchObject({
      valueOn: '2022-12-19',
      bookedOn: '2022-12-20',
      amountMinor: 11900n,
      typeCode: 'NMSC',
      references: { customerReference: '341241773/1XXXXX', bankReference: 'O/341241774' },
      description: 'Paiement',
    });
  });
});

describe('MT940 rules', () => {
  const statement = (lines: string): string => `:20:T\n:25:A\n:60F:C240101EUR0,\n${lines}\n:62F:C240101EUR0,\n`;

  it('refuses 31 February and 30 April, accepts 29/30 February as its last day', async () => {
    const dates = async (line: string) => (await collectText(statement(line))).lines.map((each) => each.valueOn);
    expect(await dates(':61:150230C1,NMSCNONREF')).toEqual(['2015-02-28']);
    expect(await dates(':61:150229C1,NMSCNONREF')).toEqual(['2015-02-28']);
    expect(await dates(':61:160229C1,NMSCNONREF')).toEqual(['2016-02-29']);
    for (const line of [':61:150231C1,NMSCNONREF', ':61:150430C1,NMSCNONREF', ':61:150431C1,NMSCNONREF']) {
      const collected = await collectText(statement(line));
      expect(collected.errors.length, line).toBe(line.includes('0430') ? 0 : 1);
    }
  });

  it('puts entry dates across a year end into the right year, both ways', async () => {
    const { lines } = await collectText(statement(':61:2312310102C1,NMSCNONREF\n:61:2401021231D1,NMSCNONREF'));
    expect(lines.map((line) => [line.valueOn, line.bookedOn])).toEqual([
      ['2023-12-31', '2024-01-02'],
      ['2024-01-02', '2023-12-31'],
    ]);
  });

  it("signs C, D, RC and RD from the holder's view and marks reversals", async () => {
    const { lines } = await collectText(
      statement(':61:240101C1,NMSC\n:61:240101D2,NMSC\n:61:240101RC3,NMSC\n:61:240101RD4,NMSC'),
    );
    expect(lines.map((line) => [line.amountMinor, line.reversal])).toEqual([
      [100n, false],
      [-200n, false],
      [-300n, true],
      [400n, true],
    ]);
  });

  it('reports a stray line after a single-line tag, and a statement without :25:', async () => {
    const { errors } = await collectText(':20:T\n:60F:C240101EUR0,\nstray\n:62F:C240101EUR0,\n');
    expect(errors.map((error) => [error.lineNumber, error.reason])).toEqual([
      [2, 'statement has no account identification :25: before its opening balance'],
      [3, 'unexpected text "stray": neither a tag (":NN:") nor the continuation of one'],
    ]);
  });

  it('ends a :86: narrative only at a tag that may follow it; elsewhere a tag-like line is a tag', async () => {
    const { lines, errors, statements } = await collectText(
      ':20:A\n:25:A\n:60F:C240101EUR0,\n:61:240101C1,NMSC\n:86:paid at\n:12:30 today\n:28C:not a tag here\n' +
        ':20:B\n:25:B\n:60F:C240101EUR0,\n:61:240101C2,NMSC\n:12:30 right after :61:\n:62F:C240101EUR2,\n',
    );
    expect(lines.map((line) => line.description)).toEqual(['paid at :12:30 today :28C:not a tag here', '']);
    expect(statements.map((statement) => statement.statementId)).toEqual(['A', 'B']);
    expect(errors.map((error) => [error.lineNumber, error.reason])).toEqual([
      [12, 'unknown tag :12: in an MT940 statement'],
    ]);
  });

  it('reads SOH and ETX around messages; a whole amount without a comma only in :61:', async () => {
    const { lines, errors } = await collectText(
      '\u0001:20:T\n:25:A\n:60F:C240101EUR0,\n:61:240101C7NMSC\n:62F:C240101EUR7,\n-\u0003\u0001\n' +
        ':20:U\n:25:A\n:60F:C240101EUR7\n:62F:C240101EUR7,\n-\u0003\n',
    );
    expect(lines.map((line) => line.amountMinor)).toEqual([700n]);
    expect(errors.map((error) => [error.lineNumber, error.reason])).toEqual([
      [9, 'amount "7" is not an MT940 amount (digits with a decimal comma)'],
    ]);
  });

  it('reports an overlong line and an empty file', async () => {
    expect((await collectText(statement(`:86:${'x'.repeat(3000)}`))).errors.map((error) => error.reason)).toEqual([
      'line is longer than 2048 characters',
    ]);
    expect((await collectText('')).errors.map((error) => error.reason)).toEqual([
      'the file contains no MT940 statement (no :20: tag)',
    ]);
  });
});

describe('MT940 limits', () => {
  it('refuses a statement line with more physical lines than the limit, once', async () => {
    const information = Array.from({ length: 150 }, (_, index) => `more text ${index}`).join('\n');
    const { errors, lines } = await collectText(
      `:20:T\n:25:A\n:60F:C240101EUR0,\n:61:240101C1,NMSC\n:86:start\n${information}\n:62F:C240101EUR1,\n`,
    );
    expect(errors).toEqual([
      { kind: 'error', lineNumber: 104, reason: 'statement line has more than 100 physical lines' },
    ]);
    expect(lines).toEqual([]);
  });

  it('drops a byte order mark of text input', async () => {
    const { errors, statements } = await collectText('\uFEFF:20:T\n:25:A\n:60F:C240101EUR0,\n:62F:C240101EUR0,\n');
    expect(errors).toEqual([]);
    expect(statements).toHaveLength(1);
  });
});
