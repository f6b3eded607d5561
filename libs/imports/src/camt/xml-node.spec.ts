import { describe, expect, it } from 'vitest';
import { appendChild, NO_ATTRIBUTES, NO_CHILDREN, newNode, serializeNode, textAt, type XmlNode } from './xml-node';

function node(name: string, text: string, attributes: Record<string, string> = NO_ATTRIBUTES): XmlNode {
  const made = newNode(name, 1, attributes);
  made.text = text;
  return made;
}

function tree(): XmlNode {
  const entry = node('Ntry', '\n  ');
  const amount = node('Amt', ' 1.00 ', { Ccy: 'EUR', Note: 'a<b & "c"' });
  const info = node('AddtlNtryInf', 'R&D <5>');
  appendChild(entry, amount);
  appendChild(entry, info);
  appendChild(entry, node('Empty', ''));
  return entry;
}

describe('serializeNode', () => {
  it('writes the compact XML of a subtree: texts trimmed and escaped, attributes quoted and escaped', () => {
    expect(serializeNode(tree(), 4096)).toBe(
      '<Ntry><Amt Ccy="EUR" Note="a&lt;b &amp; &quot;c&quot;">1.00</Amt>' +
        '<AddtlNtryInf>R&amp;D &lt;5&gt;</AddtlNtryInf><Empty></Empty></Ntry>',
    );
  });

  it('stops at charsMax, whatever part it is in', () => {
    const whole = serializeNode(tree(), 4096);
    for (const charsMax of [1, 5, 6, 30, 60, whole.length - 1, whole.length]) {
      expect(serializeNode(tree(), charsMax)).toBe(whole.slice(0, charsMax));
    }
  });
});

describe('shared empty attributes and children', () => {
  it('are frozen, so that no node can write into what every other node shares', () => {
    expect(() => {
      NO_ATTRIBUTES.Ccy = 'EUR';
    }).toThrow(TypeError);
    expect(() => NO_CHILDREN.push(node('X', ''))).toThrow(TypeError);
  });

  it('a node given a child gets an array of its own', () => {
    const first = node('A', '');
    const second = node('B', '');
    appendChild(first, node('C', 'c'));
    expect(first.children).toHaveLength(1);
    expect(second.children).toBe(NO_CHILDREN);
    expect(textAt(first, 'C')).toBe('c');
    expect(textAt(second, 'C')).toBeUndefined();
  });
});
