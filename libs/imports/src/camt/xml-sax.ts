import assert from 'node:assert/strict';
import { type SaxesOptions, SaxesParser, type SaxesTagPlain } from 'saxes';

/**
 * saxes keeps each handler given to on() as a property of the parser, stored under a computed name. V8 turns
 * an object that is given more than a few properties that way into a dictionary, and then every read of the
 * parser's own state in its per-character loop (its chunk, index, line, column) is a hash lookup: with the
 * ten handlers the camt.053 reader once set, saxes read the bench's file about four times slower than with
 * six, and the parser was most of the CPU an entry cost. Six is as many as keep it a plain object.
 */
export const SAXES_HANDLERS_MAX = 6;

// Namespaces are resolved by the reader (xml-namespaces.ts): saxes' namespace mode cost a quarter of its time.
const SAX_OPTIONS = { xmlns: false, position: true } as const satisfies SaxesOptions;

export type CamtSax = SaxesParser<typeof SAX_OPTIONS>;

/**
 * The events a camt reader hears. The XML declaration is read from `sax.xmlDecl` once the next event comes,
 * comments and processing instructions need no handler, and saxes throws what is wrong with the XML when it
 * has no error handler.
 */
export interface SaxHandlers {
  doctype: () => void;
  opentagstart: () => void;
  opentag: (tag: SaxesTagPlain) => void;
  text: (text: string) => void;
  cdata: (text: string) => void;
  closetag: (tag: SaxesTagPlain) => void;
}

export function camtSax(handlers: SaxHandlers): CamtSax {
  const names = Object.keys(handlers) as Array<keyof SaxHandlers>;
  assert.ok(names.length <= SAXES_HANDLERS_MAX, `at most ${SAXES_HANDLERS_MAX} saxes handlers`);
  const sax = new SaxesParser(SAX_OPTIONS);
  sax.on('doctype', handlers.doctype);
  sax.on('opentagstart', handlers.opentagstart);
  sax.on('opentag', handlers.opentag);
  sax.on('text', handlers.text);
  sax.on('cdata', handlers.cdata);
  sax.on('closetag', handlers.closetag);
  return sax;
}

/** Why the XML declaration read so far is refused: camt is UTF-8 only. */
export function declarationProblem(sax: CamtSax): string | null {
  const encoding = sax.xmlDecl.encoding;
  if (encoding === undefined || /^utf-?8$/i.test(encoding)) return null;
  return `XML encoding ${encoding} is not accepted; only UTF-8`;
}
