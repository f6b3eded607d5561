import { setFlagsFromString } from 'node:v8';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { camtSax, SAXES_HANDLERS_MAX } from './xml-sax';

// V8's own answer on whether an object is still a plain object with fixed fields, not a dictionary.
setFlagsFromString('--allow-natives-syntax');
const hasFastProperties = new Function('object', 'return %HasFastProperties(object)') as (object: object) => boolean;

const XML = '<?xml version="1.0"?>\n<a xmlns="urn:x"><b c="d">text<![CDATA[<e>]]></b><!-- note --><?pi x?></a>';

const noop = () => undefined;

describe('camtSax', () => {
  it('stays a plain object with every handler the camt reader sets, so saxes reads at full speed', () => {
    const sax = camtSax({
      doctype: noop,
      opentagstart: noop,
      opentag: noop,
      text: noop,
      cdata: noop,
      closetag: noop,
    });
    sax.write(XML).close();
    expect(hasFastProperties(sax)).toBe(true);
  });

  it('is needed: a saxes parser given seven handlers (the reader once set ten) becomes a dictionary', () => {
    const sax = new SaxesParser({ xmlns: true, position: true });
    const events = ['xmldecl', 'doctype', 'opentagstart', 'opentag', 'text', 'cdata', 'closetag'] as const;
    for (const event of events) sax.on(event, noop);
    expect(hasFastProperties(sax)).toBe(false);
    expect(events.length).toBeGreaterThan(SAXES_HANDLERS_MAX);
  });

  it('throws what saxes finds wrong with the XML, with its line', () => {
    const sax = camtSax({ doctype: noop, opentagstart: noop, opentag: noop, text: noop, cdata: noop, closetag: noop });
    expect(() => sax.write('<a>\n<b></a>')).toThrow(/^2:\d+: unexpected close tag/);
  });
});
