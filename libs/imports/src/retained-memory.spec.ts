import { describe, expect, it } from 'vitest';
import { parse, type StatementFormat, type StatementLine } from '@ledger/imports';
import { GATEWAY_HEADER, retainedHeap } from '../test/statement-files';

// What a parser keeps must be what it counted: a line (or a condensed camt TxDtls) holds its own characters,
// not the chunk of the file it was cut from. Each record below comes in a chunk of its own, padded with
// something the parser reads and drops (an extra column, ignored lines, a comment), as a crafted file would
// be; then the lines are kept, as the import keeps its batches. Before, every line kept its whole chunk.

const PADDING_CHARS = 60_000;
const LINES = 2_000;
/** XML is read more slowly: a smaller entry, padded less, still makes each TxDtls a chunk of its own. */
const CAMT_PADDING_CHARS = 24_000;
const CAMT_LINES = 1_000;
/** Far above a line's own size (its raw copy is cut at 4,096 characters), far below a chunk. */
const BYTES_PER_LINE_MAX = 12_000;

async function keptLines(format: StatementFormat, input: AsyncIterable<Buffer>): Promise<StatementLine[]> {
  const lines: StatementLine[] = [];
  for await (const item of parse(format, input)) {
    if (item.kind === 'error') throw new Error(`line ${item.lineNumber}: ${item.reason}`);
    if (item.kind === 'line') lines.push(item);
  }
  return lines;
}

async function* paddedGatewayExport(): AsyncGenerator<Buffer> {
  yield Buffer.from(`${GATEWAY_HEADER},padding\n`);
  for (let index = 0; index < LINES; index += 1) {
    yield Buffer.from(
      `txn_${index}_reference,2024-03-01 09:15:02,2024-03-03,usd,1.25,0.05,1.20,charge,ch_${index}_source,,` +
        `Order number ${index} for a customer,${'p'.repeat(PADDING_CHARS)}\n`,
    );
  }
}

async function* paddedMt940(interim = false): AsyncGenerator<Buffer> {
  const opening = interim ? ':34F:EUR0,\n:13D:2401011200+0100\n' : ':60F:C240101EUR0,00\n';
  yield Buffer.from(`:20:STMT1\n:25:NL81ASNB9999999999\n:28C:1/1\n${opening}`);
  const ignored = `:NS:${`${'n'.repeat(2_000)}\n`.repeat(PADDING_CHARS / 2_000)}`;
  for (let index = 0; index < LINES; index += 1) {
    yield Buffer.from(
      `:61:2401010101C1,00NTRFREFERENCE${index}//BANKREFERENCE${index}\n` +
        `:86:description number ${index} for a customer\n${ignored}`,
    );
  }
  yield Buffer.from(interim ? `:90D:0EUR0,\n:90C:${LINES}EUR${LINES},00\n-\n` : `:62F:C240101EUR${LINES},00\n-\n`);
}

/** One account of LINES details, each followed by blank lines; `atAccountEnd` runs before its trailer. */
async function* paddedBai2(atAccountEnd: () => void): AsyncGenerator<Buffer> {
  yield Buffer.from(
    '01,BANK,CUSTOMER,240101,0600,F1,,,2/\n02,CUSTOMER,BANK,1,240101,2400,USD,2/\n03,ACC-1,,010,0,,/\n',
  );
  const blank = `${' '.repeat(2_000)}\n`.repeat(PADDING_CHARS / 2_000);
  for (let index = 0; index < LINES; index += 1) {
    yield Buffer.from(`16,142,100,0,BANKREFERENCE${index},CUSTOMERREF${index},description ${index} of a\n${blank}`);
  }
  atAccountEnd();
  yield Buffer.from('49,,/\n98,,,/\n99,,,/\n');
}

const CAMT_HEAD = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt><Id>S1</Id>
<Acct><Id><IBAN>DE89370400440532013000</IBAN></Id></Acct>
<Ntry><Amt Ccy="EUR">${CAMT_LINES}.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2024-01-01</Dt></BookgDt>
<AcctSvcrRef>BATCH</AcctSvcrRef><NtryDtls>`;

/** One batch entry of CAMT_LINES TxDtls, each followed by a comment; `atEntryEnd` runs before it closes. */
async function* paddedCamtBatch(atEntryEnd: () => void): AsyncGenerator<Buffer> {
  yield Buffer.from(CAMT_HEAD);
  for (let index = 0; index < CAMT_LINES; index += 1) {
    yield Buffer.from(
      `<TxDtls><Refs><EndToEndId>END-TO-END-${index}</EndToEndId></Refs><Amt Ccy="EUR">1.00</Amt>` +
        `<RmtInf><Ustrd>Invoice number ${index} of a customer</Ustrd></RmtInf></TxDtls>` +
        `<!--${' '.repeat(CAMT_PADDING_CHARS)}-->\n`,
    );
  }
  atEntryEnd();
  yield Buffer.from('</NtryDtls></Ntry></Stmt></BkToCstmrStmt></Document>\n');
}

describe('memory a parser keeps per line', { timeout: 60_000 }, () => {
  it.each([
    ['csv:gateway', paddedGatewayExport],
    ['mt940', () => paddedMt940()],
    ['mt942', () => paddedMt940(true)],
  ] as const)('%s: each kept line holds its own characters, not its chunk', async (format, input) => {
    const before = retainedHeap();
    const lines = await keptLines(format, input());
    const held = retainedHeap() - before;
    expect(lines).toHaveLength(LINES);
    expect(held / LINES).toBeLessThan(BYTES_PER_LINE_MAX);
  });

  it('bai2: the bank references of an open account, and its lines, hold their own characters', async () => {
    const before = retainedHeap();
    let heldInAccount = 0;
    const lines = await keptLines(
      'bai2',
      paddedBai2(() => {
        heldInAccount = retainedHeap() - before;
      }),
    );
    const heldByLines = retainedHeap() - before;
    expect(lines.map((line) => line.externalId)).toEqual(
      Array.from({ length: LINES }, (_, index) => `bankref:BANKREFERENCE${index}`),
    );
    expect(heldInAccount / LINES).toBeLessThan(BYTES_PER_LINE_MAX);
    expect(heldByLines / LINES).toBeLessThan(BYTES_PER_LINE_MAX);
  });

  it('camt.053: the TxDtls of an open batch entry, and its lines, hold their own characters', async () => {
    const before = retainedHeap();
    let heldInEntry = 0;
    const lines = await keptLines(
      'camt053',
      paddedCamtBatch(() => {
        heldInEntry = retainedHeap() - before;
      }),
    );
    const heldByLines = retainedHeap() - before;
    expect(lines.map((line) => line.references.endToEndId)).toEqual(
      Array.from({ length: CAMT_LINES }, (_, index) => `END-TO-END-${index}`),
    );
    expect(heldInEntry / CAMT_LINES).toBeLessThan(BYTES_PER_LINE_MAX);
    expect(heldByLines / CAMT_LINES).toBeLessThan(BYTES_PER_LINE_MAX);
  });
});
