import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { XmlSyntaxError, XmlTokenizer } from './xml-tokenizer';

// XmlTokenizer against saxes (a well-kept, conformance-tested XML parser) as the oracle: for thousands of
// documents, written to cover the grammar and then mutated at random, both must accept the same ones with
// the same elements, attributes and texts, and refuse the same ones. Ours is fed in random chunks.

type Event = ['open', string, Record<string, string>] | ['text', string] | ['close', string];

function merged(events: Event[], event: Event): void {
  const last = events[events.length - 1];
  if (event[0] === 'text' && last?.[0] === 'text') last[1] += event[1];
  else if (!(event[0] === 'text' && event[1] === '')) events.push(event);
}

function bySaxes(document: string): Event[] | 'refused' {
  const events: Event[] = [];
  const sax = new SaxesParser({ xmlns: false, position: true });
  let doctype = false;
  let depth = 0;
  // saxes also tells of the white space around the root, which no reader keeps.
  const text = (chunk: string) => depth > 0 && merged(events, ['text', chunk]);
  sax.on('opentag', (tag) => {
    depth += 1;
    merged(events, ['open', tag.name, { ...tag.attributes }]);
  });
  sax.on('text', text);
  sax.on('cdata', text);
  sax.on('closetag', (tag) => {
    depth -= 1;
    merged(events, ['close', tag.name]);
  });
  sax.on('doctype', () => (doctype = true));
  try {
    sax.write(document).close();
  } catch {
    return 'refused';
  }
  // The camt reader refuses a DOCTYPE, and so does ours; saxes reads it. saxes also lets a lone surrogate
  // through, which is no XML character (and which decoding UTF-8 never yields).
  const loneSurrogate = /\p{Surrogate}/u.test(document);
  return doctype || loneSurrogate || sax.xmlDecl.version === '1.1' ? 'refused' : events;
}

/**
 * Where saxes is more lenient than the XML recommendation, ours follows the recommendation: a processing
 * instruction's target is followed by white space or by `?>` (saxes reads `<?a?b?>` as the target `a`).
 */
const STRICTER_THAN_SAXES = new Set(['processing instructions are expected to have a space after the target.']);

function byTokenizer(text: string, cuts: number[]): Event[] | 'refused' | 'refused, as the recommendation says' {
  const events: Event[] = [];
  const tokenizer = new XmlTokenizer({
    openTag: (tag) => merged(events, ['open', tag.name, { ...tag.attributes }]),
    text: (chunk) => merged(events, ['text', chunk]),
    closeTag: (name) => merged(events, ['close', name]),
    doctype: () => undefined,
  });
  try {
    let from = 0;
    for (const cut of [...cuts, text.length]) {
      tokenizer.write(text.slice(from, Math.max(from, cut)));
      from = Math.max(from, cut);
    }
    tokenizer.close();
  } catch (error) {
    if (error instanceof XmlSyntaxError)
      return STRICTER_THAN_SAXES.has(error.message) ? 'refused, as the recommendation says' : 'refused';
    throw error;
  }
  return tokenizer.declaration.version === '1.1' ? 'refused' : events;
}

/** A small deterministic generator (mulberry32), so a failure is reproduced by its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEEDS = [
  '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<Document xmlns="urn:x"><A b="1" c=\'2\'>t&amp;u&#65;&#x42;</A><B/></Document>',
  '\uFEFF<?xml version="1.0" standalone="yes"?><!-- c --><?pi data?>\r\n' +
    '<r>\r\n <x>a\rb</x><![CDATA[<y>&]]]]><z/></r>\n',
  '<r a="x&#10;y&lt;\tz" b = "1"\n><é:ü>€😀</é:ü><p>&quot;&apos;&gt;</p>  <q></q ></r><!--e-->',
  '<a><b><c>1</c></b><d e="f"/>text<?t x?></a>',
  ...['ok/camt053-v08-batch-reversal.xml', 'ok/camt052-v06-intraday.xml'].map((file) =>
    readFileSync(path.resolve(__dirname, '../../../../fixtures/statements', file), 'utf8'),
  ),
];

const PIECES = [
  '<',
  '>',
  '&',
  ';',
  '"',
  "'",
  '=',
  '/',
  '!',
  '?',
  '-',
  ']',
  '[',
  ' ',
  '\n',
  '\r',
  '\r\n',
  '\t',
  'a',
  ':',
  '#',
  'x',
  '0',
  '<!--',
  '-->',
  '--',
  '<![CDATA[',
  ']]>',
  '<?',
  '?>',
  '<?xml version="1.0"?>',
  '<!DOCTYPE a>',
  '\u0000',
  '\u0001',
  '\uD800',
  '\uDC00',
  'é',
  '😀',
  '\uFFFE',
  '\u00B7',
  '&lt;',
  '&#x41;',
  '&#0;',
  '&#xD800;',
  '&#1114112;',
  '&foo;',
  '&amp',
  '<a>',
  '</a>',
  '<b/>',
  '<a b="1">',
  'c="2"',
  '</',
  '<1>',
  '<-a>',
  '<a:b>',
];

function mutated(seed: string, next: () => number): string {
  let text = seed;
  const edits = 1 + Math.floor(next() * 2);
  for (let edit = 0; edit < edits; edit += 1) {
    const at = Math.floor(next() * (text.length + 1));
    const kind = next();
    if (kind < 0.45) text = text.slice(0, at) + PIECES[Math.floor(next() * PIECES.length)] + text.slice(at);
    else if (kind < 0.8) text = text.slice(0, at) + text.slice(at + 1 + Math.floor(next() * 3));
    else {
      const length = Math.floor(next() * 12);
      text = text.slice(0, at) + text.slice(at, at + length) + text.slice(at);
    }
  }
  return text;
}

function cutsOf(text: string, next: () => number): number[] {
  const cuts: number[] = [];
  for (let at = 0; at < text.length; at += 1 + Math.floor(next() * 40)) cuts.push(at);
  return cuts;
}

describe('XmlTokenizer against saxes', () => {
  it('reads the written documents as saxes does, whole and one character at a time', () => {
    for (const seed of SEEDS) {
      const expected = bySaxes(seed);
      expect(expected).not.toBe('refused');
      expect(byTokenizer(seed, [])).toEqual(expected);
      expect(
        byTokenizer(
          seed,
          Array.from({ length: seed.length }, (_, index) => index),
        ),
      ).toEqual(expected);
    }
  });

  it('accepts and refuses 6,000 mutated documents as saxes does, with the same events', () => {
    const next = random(Number(process.env.XML_FUZZ_SEED ?? 20261202));
    let refused = 0;
    for (let run = 0; run < 6000; run += 1) {
      const text = mutated(SEEDS[run % SEEDS.length], next);
      const expected = bySaxes(text);
      const actual = byTokenizer(text, cutsOf(text, next));
      if (expected === 'refused') refused += 1;
      if (actual === 'refused, as the recommendation says') continue;
      if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        const codes = [...text]
          .filter((char) => char.charCodeAt(0) > 126 || char < ' ')
          .map((char) => char.codePointAt(0));
        expect({ run, text, codes, actual }).toEqual({ run, text, codes, actual: expected });
      }
    }
    // Both outcomes are exercised.
    expect(refused).toBeGreaterThan(1000);
    expect(refused).toBeLessThan(5500);
  });

  it('tells the line of what it refuses', () => {
    const refusal = (text: string) => {
      try {
        byTokenizerStrict(text);
      } catch (error) {
        return error instanceof XmlSyntaxError ? [error.line, error.message] : error;
      }
      return null;
    };
    expect(refusal('<a>\n<b></a>')).toEqual([2, 'the end tag </a> does not close the open <b>.']);
    expect(refusal('<a>\r\n\r\n<b>&bad;</b></a>')).toEqual([3, 'undefined entity: bad.']);
    expect(refusal('<a>\rx\r\u0001</a>')).toEqual([3, 'disallowed character.']);
    expect(refusal('<a>')).toEqual([1, 'unclosed tag: a']);
  });
});

function byTokenizerStrict(text: string): void {
  const tokenizer = new XmlTokenizer({ openTag: () => {}, text: () => {}, closeTag: () => {}, doctype: () => {} });
  tokenizer.write(text);
  tokenizer.close();
}
