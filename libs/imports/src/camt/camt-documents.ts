import type { StatementFormatFamily } from '../statement-items';

/**
 * The three bank-to-customer cash management messages read by one parser: they share the entry (Ntry) and
 * its transaction details, and differ only in the names of the document's container and of each report.
 * camt.052 and camt.054 are interim: an intraday report or a notification of single movements, which the
 * end-of-day camt.053 statement books again (see the README of this lib for how the two are told apart).
 */
export interface CamtDocument {
  format: Extract<StatementFormatFamily, 'camt053' | 'camt052' | 'camt054'>;
  /** The message number in the namespace: urn:iso:std:iso:20022:tech:xsd:camt.<message>.001.<version>. */
  message: '053' | '052' | '054';
  /** The element inside <Document>. */
  container: string;
  /** The repeated element inside the container: one statement, report or notification each. */
  report: string;
  /** What the message is, for messages: "statement", "report", "notification". */
  noun: string;
  description: string;
  /** Whether the opening and closing balances are read and checked against the entries. */
  balanceChecked: boolean;
}

export const CAMT053: CamtDocument = {
  format: 'camt053',
  message: '053',
  container: 'BkToCstmrStmt',
  report: 'Stmt',
  noun: 'statement',
  description: 'bank-to-customer statement',
  balanceChecked: true,
};

// An intraday report may list only what was booked since the previous report, so its balances (interim ITBD,
// or OPBD/CLBD of a bank that writes them) need not equal the sum of its entries: they are not checked.
export const CAMT052: CamtDocument = {
  format: 'camt052',
  message: '052',
  container: 'BkToCstmrAcctRpt',
  report: 'Rpt',
  noun: 'report',
  description: 'bank-to-customer account report',
  balanceChecked: false,
};

export const CAMT054: CamtDocument = {
  format: 'camt054',
  message: '054',
  container: 'BkToCstmrDbtCdtNtfctn',
  report: 'Ntfctn',
  noun: 'notification',
  description: 'bank-to-customer debit/credit notification',
  balanceChecked: false,
};

const CAMT_DOCUMENTS = [CAMT053, CAMT052, CAMT054] as const;

// Versions 02 to 08: what banks send and the samples show (camt.053 02/04/08, camt.052 02/04/06,
// camt.054 02/04/08); the entry's shape is the same in all of them for what is read here.
const VERSIONS = /^0[2-8]$/;
const CAMT_NAMESPACE = /^urn:iso:std:iso:20022:tech:xsd:camt\.(\d{3})\.001\.(\d{2})$/;

/** Why a root element is refused for this document kind; null when it is one. */
export function rootProblem(document: CamtDocument, tag: { local: string; name: string; uri: string }): string | null {
  const camt = CAMT_NAMESPACE.exec(tag.uri);
  const expected = `camt.${document.message} ${document.description} (versions 02 to 08)`;
  if (tag.local !== 'Document' || camt === null) {
    const where = `root element <${tag.name}> in namespace ${JSON.stringify(tag.uri)}`;
    return `not a camt.${document.message} document: ${where}`;
  }
  const [, message, version] = camt;
  if (message === document.message && VERSIONS.test(version)) return null;
  const other = CAMT_DOCUMENTS.find((each) => each.message === message);
  const hint =
    other !== undefined && other !== document && VERSIONS.test(version) ? `; import it as ${other.format}` : '';
  return `camt.${message}.001.${version} is not a ${expected}${hint}`;
}
