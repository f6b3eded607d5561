export { CURRENCY_CODES, currencyExponent, isCurrencyCode } from './currencies';
export {
  AMOUNT_MINOR_MAX,
  MoneyError,
  decimalToMinor,
  formatMoney,
  minorToDecimal,
  parseMinorUnits,
  type DecimalFormat,
  type DecimalSeparator,
  type MoneyErrorCode,
  type ThousandsSeparator,
} from './money';
