import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { collectStatement } from '@ledger/imports';
import { textInput } from '../../test/statement-files';

// The camt reader resolves namespaces itself (saxes runs without its namespace mode, which cost a quarter of
// its time): every document here must be refused, or accepted, as saxes' namespace mode did, in its words.

const NS = 'urn:iso:std:iso:20022:tech:xsd:camt.053.001.08';

function document(entry: string, root = `<Document xmlns="${NS}">`, rootEnd = '</Document>'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
${root}<BkToCstmrStmt><Stmt><Id>S</Id>
<Acct><Id><IBAN>NL91ABNA0417164300</IBAN></Id></Acct>
${entry}
</Stmt></BkToCstmrStmt>${rootEnd}`;
}

function entry(amount: string, inside = ''): string {
  return `<Ntry><Amt Ccy="EUR">1.00</Amt>${amount}<CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2024-01-02</Dt></BookgDt>
<AcctSvcrRef>REF</AcctSvcrRef><NtryDtls>${inside}</NtryDtls></Ntry>`;
}

/** What saxes' namespace mode says is wrong with the text, position dropped; null when nothing. */
function namespaceModeProblem(text: string): string | null {
  const sax = new SaxesParser({ xmlns: true, position: true });
  try {
    sax.write(text).close();
    return null;
  } catch (error) {
    return (error as Error).message.replace(/^\d+:\d+: /, '');
  }
}

async function malformedReasons(text: string): Promise<string[]> {
  const { errors } = await collectStatement('camt053', textInput(text, 7), { linesMax: 100 });
  return errors.map((error) => error.reason).filter((reason) => reason.startsWith('malformed XML: '));
}

const CASES: Array<[string, string]> = [
  ['an unbound element prefix', document(entry('<x:AddtlNtryInf>i</x:AddtlNtryInf>'))],
  ['an unbound attribute prefix', document(entry('<AddtlNtryInf x:a="1">i</AddtlNtryInf>'))],
  ['a name with two colons', document(entry('<a:b:c/>'))],
  ['a name that starts with a colon', document(entry('<AddtlNtryInf :a="1">i</AddtlNtryInf>'))],
  ['an attribute name that ends with a colon', document(entry('<AddtlNtryInf a:="1">i</AddtlNtryInf>'))],
  ['an element prefixed xmlns', document(entry('<xmlns:Nm xmlns:xmlns="urn:x"/>'))],
  ['a prefix undefined', document(entry('<Nm xmlns:p="">n</Nm>'))],
  ['the xml prefix bound elsewhere', document(entry('<Nm xmlns:xml="urn:x">n</Nm>'))],
  ['the default namespace set to the xmlns URI', document(entry('<Nm xmlns="http://www.w3.org/2000/xmlns/"/>'))],
  ['the xml namespace on another prefix', document(entry('<Nm xmlns:q="http://www.w3.org/XML/1998/namespace"/>'))],
  ['one expanded attribute name twice', document(entry('<Nm xmlns:a="urn:u" xmlns:b="urn:u" a:x="1" b:x="2"/>'))],
  ['a prefix declared on the previous sibling only', document(entry('<Nm xmlns:p="urn:p"/><p:Nm/>'))],
  [
    'a prefix declared on the parent',
    document(entry('', '<TxDtls xmlns:p="urn:p"><p:AddtlTxInf>t</p:AddtlTxInf></TxDtls>')),
  ],
  ['a prefix out of scope after its element closed', document(entry('', '<TxDtls xmlns:p="urn:p"></TxDtls><p:X/>'))],
  ['the xml prefix, bound from the start', document(entry('<Nm xml:lang="de">n</Nm>'))],
  ['a prefixed root', document(entry(''), `<c:Document xmlns:c="${NS}">`, '</c:Document>')],
  ['a prefixed root without its declaration', document(entry(''), '<c:Document>', '</c:Document>')],
];

describe('camt namespaces, resolved by the reader', () => {
  for (const [name, text] of CASES) {
    it(`${name}: refused or accepted as saxes' namespace mode does`, async () => {
      const expected = namespaceModeProblem(text);
      expect(await malformedReasons(text)).toEqual(expected === null ? [] : [`malformed XML: ${expected}`]);
    });
  }

  it('covers both outcomes: most cases are refusals, some are accepted', () => {
    const refused = CASES.filter(([, text]) => namespaceModeProblem(text) !== null).length;
    expect(refused).toBeGreaterThanOrEqual(12);
    expect(refused).toBeLessThan(CASES.length);
  });
});
