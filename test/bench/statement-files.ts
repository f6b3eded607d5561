import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

// Generated statements for the import suite. Each line is made once, as the row the import should
// store and as the text of the file, so the plain SQL baseline loads exactly the lines the file holds.

/** One statement line as stored: what the baseline inserts, and (as `raw`) what the file says. */
export interface GeneratedLine {
  externalId: string;
  bookedOn: string;
  amountMinor: bigint;
  currency: string;
  description: string;
  references: Record<string, string>;
  raw: string;
}

export interface StatementFormat {
  name: 'csv' | 'camt053';
  /** The source's format, as the import use case is told. */
  sourceFormat: string;
  /** The ledger account a source of this format maps to, and its currency. */
  account: string;
  currency: string;
  header(count: number): string;
  line(index: number): GeneratedLine;
  footer(count: number): string;
}

const day = (index: number) =>
  `2024-${String(1 + (index % 12)).padStart(2, '0')}-${String(1 + (index % 28)).padStart(2, '0')}`;
const decimal = (minor: bigint) => `${minor / 100n}.${String(minor % 100n).padStart(2, '0')}`;

/** A payment gateway's balance export (the built-in csv:gateway profile): net = gross - fee. */
export const GATEWAY_CSV: StatementFormat = {
  name: 'csv',
  sourceFormat: 'csv:gateway',
  account: 'assets:gateway',
  currency: 'USD',
  header: () => 'id,created,available_on,currency,gross,fee,net,reporting_category,source_id,payout_id,description\n',
  line(index) {
    const gross = BigInt(1000 + (index % 9000));
    const fee = BigInt(30 + (index % 70));
    const raw =
      `txn_${index},${day(index)} 10:00:00,${day(index)} 00:00:00,` +
      `usd,${decimal(gross)},${decimal(fee)},${decimal(gross - fee)},charge,ch_${index},,Order ${index}`;
    return {
      externalId: `txn_${index}`,
      bookedOn: day(index),
      amountMinor: gross - fee,
      currency: 'USD',
      description: `Order ${index}`,
      references: { gatewayId: `txn_${index}`, sourceId: `ch_${index}` },
      raw,
    };
  },
  footer: () => '',
};

/** A bank's camt.053 statement; entry i credits 100 + i cents, so the closing balance is known up front. */
export const CAMT_053: StatementFormat = {
  name: 'camt053',
  sourceFormat: 'camt053',
  account: 'assets:bank',
  currency: 'EUR',
  header(count) {
    const closing = (BigInt(count) * BigInt(count - 1)) / 2n + BigInt(count) * 100n;
    return (
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
      '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>' +
      '<GrpHdr><MsgId>BENCH</MsgId><CreDtTm>2024-12-31T18:00:00Z</CreDtTm></GrpHdr>\n' +
      '<Stmt><Id>BENCH-1</Id><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>\n' +
      '<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">0.00</Amt><CdtDbtInd>CRDT</CdtDbtInd>' +
      '<Dt><Dt>2024-01-01</Dt></Dt></Bal>\n' +
      `<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">${decimal(closing)}</Amt>` +
      '<CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2024-12-31</Dt></Dt></Bal>\n'
    );
  },
  line(index) {
    const minor = BigInt(100 + index);
    const raw =
      `<Ntry><NtryRef>E${index}</NtryRef><Amt Ccy="EUR">${decimal(minor)}</Amt>` +
      '<CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>' +
      `<BookgDt><Dt>${day(index)}</Dt></BookgDt><ValDt><Dt>${day(index)}</Dt></ValDt>` +
      `<AcctSvcrRef>ASR${index}</AcctSvcrRef><BkTxCd><Prtry><Cd>NTRF</Cd></Prtry></BkTxCd>` +
      `<NtryDtls><TxDtls><Refs><EndToEndId>E2E${index}</EndToEndId></Refs>` +
      `<RmtInf><Ustrd>Invoice ${index}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`;
    return {
      externalId: `acctsvcrref:ASR${index}`,
      bookedOn: day(index),
      amountMinor: minor,
      currency: 'EUR',
      description: `Invoice ${index}`,
      references: { endToEndId: `E2E${index}` },
      raw,
    };
  },
  footer: () => '</Stmt></BkToCstmrStmt></Document>\n',
};

export const STATEMENT_FORMATS: readonly StatementFormat[] = [GATEWAY_CSV, CAMT_053];

/** Writes `count` lines of the format to `path`, streaming; answers nothing until the file is closed. */
export async function writeStatementFile(path: string, format: StatementFormat, count: number): Promise<void> {
  const out = createWriteStream(path);
  out.write(format.header(count));
  for (let index = 0; index < count; index++) {
    if (!out.write(`${format.line(index).raw}\n`)) await once(out, 'drain');
  }
  out.end(format.footer(count));
  await once(out, 'finish');
}
