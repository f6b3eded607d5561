import { describe, expect, it } from 'vitest';
import { collectStatement } from '@ledger/imports';
import { textInput } from '../../test/statement-files';
import { RAW_CHARS_MAX } from '../limits';
import { boundedRaw } from '../text-input';

// A line's raw is its entry as the bank wrote it (indentation, CRLF, entities, comments and prefixes kept),
// whatever the cuts between the chunks: saxes reports positions, the reader cuts the text at them.

const ENTRY_ONE =
  '<c:Ntry>\r\n      <c:Amt Ccy="EUR">10.00</c:Amt><!-- one -->\r\n      <c:CdtDbtInd>CRDT</c:CdtDbtInd>' +
  '<c:Sts><c:Cd>BOOK</c:Cd></c:Sts><c:BookgDt><c:Dt>2026-01-02</c:Dt></c:BookgDt>\r\n' +
  '      <c:AcctSvcrRef>A&amp;1</c:AcctSvcrRef>\r\n      <c:NtryDtls><c:TxDtls><c:Refs>' +
  '<c:EndToEndId>E2E-1</c:EndToEndId></c:Refs><c:RmtInf><c:Ustrd>Invoice &lt;1&gt;</c:Ustrd></c:RmtInf>' +
  '</c:TxDtls></c:NtryDtls>\r\n    </c:Ntry>';

const BATCH_HEAD_BEFORE =
  '<c:Ntry   xml:lang="en"\n  ><c:Amt Ccy="EUR">3.00</c:Amt><c:CdtDbtInd>CRDT</c:CdtDbtInd><c:Sts>BOOK</c:Sts>' +
  '<c:BookgDt><c:Dt>2026-01-02</c:Dt></c:BookgDt><c:AcctSvcrRef>B</c:AcctSvcrRef>\n  <c:NtryDtls>\n    ';
const DETAILS = [1, 2].map(
  (index) =>
    `<c:TxDtls><c:Refs><c:EndToEndId>E-${index}</c:EndToEndId></c:Refs>` +
    `<c:Amt Ccy="EUR">${index}.00</c:Amt></c:TxDtls>`,
);
const BATCH_HEAD_AFTER = '\n  </c:NtryDtls>\n  <c:AddtlNtryInf>two</c:AddtlNtryInf>\n</c:Ntry>';
const BATCH = `${BATCH_HEAD_BEFORE}${DETAILS[0]}\n    ${DETAILS[1]}${BATCH_HEAD_AFTER}`;

function statement(entries: string[]): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\r\n' +
    '<c:Document xmlns:c="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><c:BkToCstmrStmt><c:Stmt>' +
    '<c:Id>S</c:Id><c:Acct><c:Id><c:IBAN>DE89370400440532013000</c:IBAN></c:Id></c:Acct>\r\n    ' +
    `${entries.join('\r\n    ')}\r\n</c:Stmt></c:BkToCstmrStmt></c:Document>\r\n`
  );
}

async function raws(text: string, chunkChars: number): Promise<string[]> {
  const { lines, errors } = await collectStatement('camt053', textInput(text, chunkChars), { linesMax: 10 });
  expect(errors).toEqual([]);
  return lines.map((line) => line.raw);
}

describe('camt line raw', () => {
  const text = statement([ENTRY_ONE, BATCH, ENTRY_ONE.replaceAll('A&amp;1', 'A&amp;2')]);

  for (const chunkChars of [1, 2, 3, 7, 13, 101, 4096, text.length])
    it(`is the entry as received, and a split batch's head with each TxDtls, in chunks of ${chunkChars}`, async () => {
      const head = `${BATCH_HEAD_BEFORE}\n    ${BATCH_HEAD_AFTER}`;
      expect(await raws(text, chunkChars)).toEqual([
        ENTRY_ONE,
        head + DETAILS[0],
        head + DETAILS[1],
        ENTRY_ONE.replaceAll('A&amp;1', 'A&amp;2'),
      ]);
    });

  it('is cut at RAW_CHARS_MAX with the truncation mark, as every format', async () => {
    const long = `<c:Ustrd>Invoice</c:Ustrd><c:Note>${'x'.repeat(2000)}</c:Note>`.repeat(3);
    const entry = ENTRY_ONE.replace('<c:Ustrd>Invoice &lt;1&gt;</c:Ustrd>', long);
    const [raw] = await raws(statement([entry]), 8191);
    expect(raw).toBe(boundedRaw(entry));
    expect(raw.length).toBe(RAW_CHARS_MAX);
  });
});
