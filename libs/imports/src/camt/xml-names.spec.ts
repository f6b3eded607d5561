import { describe, expect, it } from 'vitest';
import { XmlTokenizer } from './xml-tokenizer';

function names(text: string): string[] {
  const seen: string[] = [];
  const tokenizer = new XmlTokenizer({
    openTag: (tag) => seen.push(tag.name, ...Object.keys(tag.attributes)),
    text: () => undefined,
    closeTag: (name) => seen.push(`/${name}`),
    doctype: () => undefined,
  });
  tokenizer.write(text);
  tokenizer.close();
  return seen;
}

describe('XmlNames', () => {
  it('reads a name that begins another known name, and one that a known name begins, as themselves', () => {
    expect(names('<abc><ab abcd="1" ab="2"/><abcd/></abc>')).toEqual([
      'abc',
      'ab',
      'abcd',
      'ab',
      '/ab',
      'abcd',
      '/abcd',
      '/abc',
    ]);
  });

  it('reads every name of a file with far more names on one letter than it remembers', () => {
    const inner = Array.from({ length: 100 }, (_, index) => `<a${index}/>`).join('');
    const expected = ['r', ...Array.from({ length: 100 }, (_, index) => [`a${index}`, `/a${index}`]).flat(), '/r'];
    expect(names(`<r>${inner}${inner}</r>`)).toEqual([...expected.slice(0, -1), ...expected.slice(1)]);
  });
});
