import { currencyExponent, formatMoney, minorToDecimal } from '@ledger/money';
import type { ClosingBalance, ExportedTransaction } from './exported-transaction';

// hledger's journal format (https://hledger.org/hledger.html#journal-format). Amounts are exact
// decimals of the minor units; a debit is positive, a credit negative, so every currency of a
// transaction sums to zero on its own and no exchange rate is needed to balance it. A conversion
// still carries its price, so that hledger knows it as one: each posting in the `from` currency has
// the total cost `@@ <to amount>` (the rounded amount the ledger posted, so the costs balance exactly).

function amount(amountMinor: bigint, currency: string): string {
  return formatMoney(amountMinor, currency);
}

function isoDate(time: Date): string {
  return time.toISOString().slice(0, 10);
}

/** Descriptions are free text: one line, and no ';' (which would start a comment). */
function oneLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
  const printable = text.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  return printable.replace(/;/g, ',').trim();
}

/** What the transaction is to the ledger: a capture of a hold, a reversal, or a plain posting. */
function relation(transaction: ExportedTransaction): string {
  if (transaction.holdId) return `capture of hold ${transaction.holdId}`;
  if (transaction.reversesId) return `reversal of ${transaction.reversesId}`;
  return transaction.status;
}

/** Directives that make `hledger --strict` accept the file: decimal mark, commodities, accounts. */
export function hledgerPreamble(title: string, accounts: readonly ClosingBalance[]): string {
  const currencies = [...new Set(accounts.map((account) => account.currency))].sort();
  const lines = [`; ${oneLine(title)}`, 'decimal-mark .', ''];
  for (const currency of currencies) {
    // hledger wants a decimal mark in every commodity directive, "1000." for a currency without decimals.
    const sample = minorToDecimal(1000n * 10n ** BigInt(currencyExponent(currency) ?? 0), currency);
    lines.push(`commodity ${sample.includes('.') ? sample : `${sample}.`} ${currency}`);
  }
  lines.push('');
  for (const account of accounts) lines.push(`account ${account.code}`);
  return `${lines.join('\n')}\n\n`;
}

type Entry = ExportedTransaction['entries'][number];

/**
 * The total cost of each `from` posting of a conversion, when its posted entries have the shape a
 * conversion posts (two of each currency, of one amount each); otherwise none, and it is exported as
 * any transaction. The cost comes from the entries, never from the metadata alone.
 */
export function conversionCosts(transaction: ExportedTransaction, posted: readonly Entry[]): Map<number, string> {
  const costs = new Map<number, string>();
  const conversion = transaction.conversion;
  if (conversion === null) return costs;
  const from = posted.filter((entry) => entry.currency === conversion.fromCurrency);
  const to = posted.filter((entry) => entry.currency === conversion.toCurrency);
  const oneAmount = (entries: readonly Entry[]) =>
    entries.length === 2 && entries[0]!.amountMinor === entries[1]!.amountMinor;
  if (from.length + to.length !== posted.length || !oneAmount(from) || !oneAmount(to)) return costs;
  for (const entry of from) costs.set(entry.leg, ` @@ ${amount(to[0]!.amountMinor, conversion.toCurrency)}`);
  return costs;
}

/** One transaction with its posted entries; undefined when it has none (a hold, a void, an expiry). */
export function hledgerTransaction(transaction: ExportedTransaction): string | undefined {
  const posted = transaction.entries.filter((entry) => !entry.pending);
  if (posted.length === 0) return undefined;
  const description =
    oneLine([transaction.externalRef, transaction.description].filter((part) => part).join(' - ')) ||
    relation(transaction);
  const costs = conversionCosts(transaction, posted);
  const conversion = transaction.conversion;
  const lines = [
    `${isoDate(transaction.effectiveAt)} * (${transaction.id}) ${description}`,
    `    ; ${relation(transaction)}, journal stripe ${transaction.stripe} seq ${transaction.seq} ` +
      `hash ${transaction.hash}`,
    ...(costs.size > 0 && conversion !== null
      ? [
          `    ; conversion ${conversion.fromCurrency} to ${conversion.toCurrency} at ${oneLine(conversion.rate)}, ` +
            `rounded ${oneLine(conversion.rounding)}, remainder ${oneLine(conversion.remainder)} minor units`,
        ]
      : []),
    ...posted.map((entry) => {
      const signed = entry.direction === 'debit' ? entry.amountMinor : -entry.amountMinor;
      return `    ${entry.account}  ${amount(signed, entry.currency)}${costs.get(entry.leg) ?? ''}`;
    }),
  ];
  return `${lines.join('\n')}\n\n`;
}

/** The closing balance of every account as a balance assertion (`=`: this account alone, this commodity). */
export function hledgerClosingAssertions(date: Date, accounts: readonly ClosingBalance[]): string {
  const lines = [
    `${isoDate(date)} * closing balances`,
    "    ; each account's posted balance read with the journal heads, asserted",
  ];
  for (const account of accounts) {
    const balance = amount(account.postedDebits - account.postedCredits, account.currency);
    lines.push(`    ${account.code}  0 ${account.currency} = ${balance}`);
  }
  return `${lines.join('\n')}\n`;
}
