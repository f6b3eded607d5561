import { describe, expect, it } from 'vitest';
import { appendChild, NO_ATTRIBUTES, NO_CHILDREN, newNode, textAt, type XmlNode } from './xml-node';

function node(name: string, text: string, attributes: Record<string, string> = NO_ATTRIBUTES): XmlNode {
  const made = newNode(name, 1, attributes);
  made.text = text;
  return made;
}

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
