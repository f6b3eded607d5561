// What a payment order's step says, readably: the provider's answer (`{httpStatus, body, elapsedMs}`) or the
// ledger's side (`{holdId, clearingAccount}`), as the API stores it with the step. Pure functions of `detail`.
import { evidenceText } from './evidence';

/** A step's detail in short: facts to show on the step's row, and the provider's answer body, if any, apart. */
export interface StepDetail {
  /** `HTTP 503`, `12 ms`, `holdId: …`: in the order the detail has them, the HTTP status first. */
  facts: string[];
  /** The body the provider answered, indented when it is JSON; shown folded away, it can be long. */
  body?: string;
}

/** The provider's body as readable text: JSON indented, anything else as it came. */
export function readableBody(body: unknown): string {
  if (typeof body !== 'string') return JSON.stringify(body, null, 2);
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body; // not JSON (an HTML error page, or cut short at the stored length)
  }
}

function fact(key: string, value: unknown): string | undefined {
  switch (key) {
    case 'httpStatus':
      return typeof value === 'number' ? `HTTP ${value}` : 'no HTTP answer';
    case 'elapsedMs':
      return typeof value === 'number' ? `${value} ms` : undefined;
    case 'truncated':
      return value === true ? 'body cut short' : undefined;
    default:
      return `${key}: ${evidenceText(value)}`;
  }
}

export function stepDetail(detail: Record<string, unknown>): StepDetail {
  const { httpStatus, body, ...rest } = detail;
  const first: [string, unknown][] = 'httpStatus' in detail ? [['httpStatus', httpStatus]] : [];
  const facts = [...first, ...Object.entries(rest)].flatMap(([key, value]) => fact(key, value) ?? []);
  return body === undefined || body === '' ? { facts } : { facts, body: readableBody(body) };
}
