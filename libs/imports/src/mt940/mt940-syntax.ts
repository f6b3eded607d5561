// The lines of an MT940 or MT942 file that are not the fields of a statement line: tags, envelopes, ends.

/** Where the reader is in a statement (MT940) or report (MT942). */
export type Phase = 'header' | 'lines' | 'closed';

export const TAG_LINE = /^:(\d{2}[A-Z]?|NS):(.*)$/;
// SOH and ETX of a SWIFT envelope, at the start and end of each message (sometimes both on one line).
// biome-ignore lint/suspicious/noControlCharactersInRegex: these two control characters are what it finds
export const ENVELOPE_CONTROLS = /[\u0001\u0003]/;
// The tags that may follow the :86: narrative. Banks wrap :86: text at 65 characters, so a continuation line
// can start with text that looks like a tag (":26:03", ":12:30"); only these, at the start of a line, end it.
export const TAGS_AFTER_NARRATIVE = new Set(['20', '61', '62F', '62M', '64', '65', '86', 'NS']);
export const MT942_TAGS_AFTER_NARRATIVE = new Set(['20', '61', '86', 'NS', '90D', '90C']);
export const END_OF_MESSAGE = /^-(\}.*|[A-Z]*)$/;
// Lines tolerated between statements: SWIFT FIN block headers and bank envelopes. Anything else outside a
// statement is reported, which is how a file that is not MT940 at all (wolph's invalid_statement.sta) fails.
export const ENVELOPE_LINES: readonly RegExp[] = [
  /^\{1:[^}]*\}(\{2:[^}]*\})?(\{3:.*\})?(\{4:)?$/, // {1:F01...}{2:I940...}{4:
  /^\{4:$/,
  /^:?94[02]:?( \d{2})?$/, // "940", "940 00" (ING), ":940:" (Rabobank), and the same for 942
  /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/, // a sender BIC on its own line (ABN AMRO)
  /^0000 \d{2}[A-Z]{6}[A-Z0-9]{2}[A-Z0-9]{3,}\d*$/, // "0000 01INGBNL2AXXXX00001" (ING)
];
