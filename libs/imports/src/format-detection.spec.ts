import { describe, expect, it } from 'vitest';
import { DETECTION_PREFIX_BYTES_MAX, detectFormat, detectInputFormat } from './format-detection';

const camtDocument = (namespace: string, root: string, prefix = ''): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<${prefix}Document xmlns${prefix === '' ? '' : `:${prefix.slice(0, -1)}`}=` +
  `"urn:iso:std:iso:20022:tech:xsd:${namespace}">\n  <${prefix}${root}>\n    <${prefix}GrpHdr/>`;

describe('detectFormat: ISO 20022', () => {
  it('tells camt.053, camt.052 and camt.054 by their root element', () => {
    expect(detectFormat(camtDocument('camt.053.001.08', 'BkToCstmrStmt'))).toBe('camt053');
    expect(detectFormat(camtDocument('camt.052.001.02', 'BkToCstmrAcctRpt'))).toBe('camt052');
    expect(detectFormat(camtDocument('camt.054.001.04', 'BkToCstmrDbtCdtNtfctn'))).toBe('camt054');
  });

  it('reads a prefixed root, a BOM, leading whitespace, and bytes rather than text', () => {
    const prefixed = camtDocument('camt.053.001.02', 'BkToCstmrStmt', 'ns2:');
    expect(detectFormat(prefixed)).toBe('camt053');
    expect(detectFormat(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`\r\n  ${prefixed}`)]))).toBe(
      'camt053',
    );
    expect(detectFormat(`\uFEFF${camtDocument('camt.054.001.08', 'BkToCstmrDbtCdtNtfctn')}`)).toBe('camt054');
  });

  it('falls back on the namespace when the root is not in the prefix; the root wins over a namespace', () => {
    const namespaceOnly = '<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.052.001.06">';
    expect(detectFormat(namespaceOnly)).toBe('camt052');
    expect(detectFormat(camtDocument('camt.053.001.02', 'BkToCstmrAcctRpt'))).toBe('camt052');
  });

  it('refuses other XML: a payment order, a root that only begins like one', () => {
    expect(detectFormat(camtDocument('pain.001.001.03', 'CstmrCdtTrfInitn'))).toBeNull();
    expect(detectFormat('<Document><BkToCstmrStmtX>')).toBeNull();
    expect(detectFormat('<html><body>statement</body></html>')).toBeNull();
  });
});

describe('detectFormat: SWIFT MT940 and MT942', () => {
  const statement = ':20:STMT1\r\n:25:DE89370400440532013000\r\n:28C:1/1\r\n:60F:C240101EUR100,00\r\n';
  const interim = ':20:INT1\n:25:PL29114010810000267002001002\n:28C:1/1\n:34F:PLND0,\n:13D:1701191010+0100\n';

  it('reads a :20: first tag as MT940, and as MT942 with :34F:/:13D: and no :60F:/:62F:', () => {
    expect(detectFormat(statement)).toBe('mt940');
    expect(detectFormat(interim)).toBe('mt942');
    expect(detectFormat(`${interim}:61:170119D1,00NTRFNONREF\n:62F:C170119PLN0,\n`)).toBe('mt940');
    expect(detectFormat(`${statement}:34F:EUR0,\n`)).toBe('mt940');
  });

  it('reads bank header lines before the first tag (ABN AMRO, ING, Rabobank), but not too many', () => {
    expect(detectFormat(`ABNANL2A\n940\nABNANL2A\n${statement}`)).toBe('mt940');
    expect(detectFormat(`0000 01INGBNL2AXXXX00001\n0000 01INGBNL2AXXXX00001\n940 00\n${statement}`)).toBe('mt940');
    expect(detectFormat(`:940:\n${statement}`)).toBe('mt940');
    expect(detectFormat(`${'header\n'.repeat(8)}${statement}`)).toBeNull();
  });

  it('hands a fragment that starts with another tag to the MT940 parser, which says what is wrong', () => {
    expect(detectFormat(':60F:C100318EUR380115,12\n')).toBe('mt940');
  });

  it('reads the envelope: SOH, {1:, and block 2 O940/O942 or I940 deciding over the tags', () => {
    const envelope = (type: string, body: string) =>
      `{1:F01BANKDEFFAXXX0000000000}{2:${type}BANKDEFFXXXXN}{4:\r\n${body}-}`;
    expect(detectFormat(envelope('O940', statement))).toBe('mt940');
    expect(detectFormat(`\u0001${envelope('O942', statement)}\u0003`)).toBe('mt942');
    expect(detectFormat(envelope('I940', interim))).toBe('mt940');
    expect(detectFormat(`{1:F01BANKDEFFAXXX0000000000}{4:\r\n${interim}-}`)).toBe('mt942');
  });

  it('refuses numbered lines of text', () => {
    expect(detectFormat('1\n2\n3\n4\n')).toBeNull();
  });
});

describe('detectFormat: BAI2 and CSV', () => {
  it('reads a first record 01, as BAI2', () => {
    expect(detectFormat('01,NWBKGB2L,9876543,100215,14:59:35,2215,,,2/\n02,9876543,NWBKGB2L,1,091216,2400,,/\n')).toBe(
      'bai2',
    );
  });

  it('tells the gateway export and the bank profile by the header row, in any case, quoted or not', () => {
    expect(detectFormat('id,created,available_on,currency,gross,fee,net,description\ntxn_1,...')).toBe('csv:gateway');
    expect(detectFormat('"ID","Created","Currency","Gross","Fee","Net"\r\n')).toBe('csv:gateway');
    // A gateway export that lacks a column is still the gateway's: its parser names the column missing.
    expect(detectFormat('id,created,currency,gross,fee,reporting_category\n')).toBe('csv:gateway');
    expect(detectFormat('date,value date,description,amount,currency,reference,counterparty\n')).toBe('csv:bank');
    expect(detectFormat(' Date , Amount \n')).toBe('csv:bank');
  });

  it("refuses another CSV (a tenant's own profile), an empty file and whitespace", () => {
    expect(detectFormat('Buchungstag;Valuta;Verwendungszweck;Soll;Haben\n')).toBeNull();
    expect(detectFormat('')).toBeNull();
    expect(detectFormat(' \r\n\t\n')).toBeNull();
    expect(detectFormat(Buffer.from([0x00, 0x01, 0x02]))).toBeNull();
  });
});

describe('detectInputFormat', () => {
  async function readAll(input: AsyncIterable<Buffer | Uint8Array | string>): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
    return Buffer.concat(chunks).toString('latin1');
  }

  async function* chunked(text: string, chunkChars: number): AsyncGenerator<Buffer> {
    for (let at = 0; at < text.length; at += chunkChars) yield Buffer.from(text.slice(at, at + chunkChars), 'latin1');
  }

  it('detects across small chunks and hands the whole file on, once', async () => {
    const file = `ABNANL2A\n940\n:20:X\n:25:A\n${'x'.repeat(3 * DETECTION_PREFIX_BYTES_MAX)}`;
    let pulled = 0;
    async function* counted(): AsyncGenerator<Buffer> {
      for await (const chunk of chunked(file, 5)) {
        pulled += chunk.length;
        yield chunk;
      }
    }
    const detection = await detectInputFormat(counted());
    expect(detection.format).toBe('mt940');
    // Only a bounded prefix was read before deciding.
    expect(pulled).toBeLessThanOrEqual(DETECTION_PREFIX_BYTES_MAX + 5);
    expect(await readAll(detection.input)).toBe(file);
  });

  it('decides only on the first DETECTION_PREFIX_BYTES_MAX bytes', async () => {
    const late = `${' '.repeat(DETECTION_PREFIX_BYTES_MAX)}:20:X\n`;
    const detection = await detectInputFormat(chunked(late, 4096));
    expect(detection.format).toBeNull();
    expect(await readAll(detection.input)).toBe(late);
  });

  it('hands a file shorter than the prefix on whole, text chunks too', async () => {
    async function* text(): AsyncGenerator<string> {
      yield '01,A,B';
      yield ',100215/\n';
    }
    const detection = await detectInputFormat(text());
    expect(detection.format).toBe('bai2');
    expect(await readAll(detection.input)).toBe('01,A,B,100215/\n');
  });

  it('closes the source when the file is not read on', async () => {
    let closed = false;
    async function* source(): AsyncGenerator<Buffer> {
      try {
        for (let index = 0; ; index += 1) yield Buffer.from(`${index},`.repeat(1000));
      } finally {
        closed = true;
      }
    }
    const detection = await detectInputFormat(source());
    expect(detection.format).toBeNull();
    await detection.close();
    expect(closed).toBe(true);
  });
});
