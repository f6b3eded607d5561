// A minimal element tree for ONE bounded subtree at a time (a statement's header elements, one entry, one
// TxDtls). The SAX reader never builds a tree of the whole document.

export interface XmlNode {
  name: string;
  /** Line where the element's start tag begins. */
  line: number;
  attributes: Record<string, string>;
  text: string;
  children: XmlNode[];
}

/**
 * What an element without attributes, or without children, holds: one shared frozen value instead of a new
 * object per node (most camt elements have neither). Frozen, so that a write to it throws instead of
 * reaching every other node.
 */
export const NO_ATTRIBUTES: Record<string, string> = Object.freeze({});
export const NO_CHILDREN: XmlNode[] = Object.freeze([]) as unknown as XmlNode[];

export function newNode(name: string, line: number, attributes: Record<string, string>): XmlNode {
  return { name, line, attributes, text: '', children: NO_CHILDREN };
}

/** Appends `child` to `parent`'s children (a node starts with the shared NO_CHILDREN). */
export function appendChild(parent: XmlNode, child: XmlNode): void {
  if (parent.children === NO_CHILDREN) parent.children = [child];
  else parent.children.push(child);
}

// Plain loops, no closures: camt's mapping asks these about thirty times per entry.

export function childNode(node: XmlNode | undefined, name: string): XmlNode | undefined {
  if (node === undefined) return undefined;
  const children = node.children;
  for (let index = 0; index < children.length; index += 1) if (children[index].name === name) return children[index];
  return undefined;
}

export function childNodes(node: XmlNode | undefined, name: string): XmlNode[] {
  const found: XmlNode[] = [];
  if (node === undefined) return found;
  for (const child of node.children) if (child.name === name) found.push(child);
  return found;
}

/** The node at a path of child names, e.g. nodeAt(entry, 'BookgDt', 'Dt'). */
export function nodeAt(node: XmlNode | undefined, ...path: string[]): XmlNode | undefined {
  let current = node;
  for (let index = 0; index < path.length && current !== undefined; index += 1)
    current = childNode(current, path[index]);
  return current;
}

/** Trimmed text at a path; undefined when absent or blank. */
export function textAt(node: XmlNode | undefined, ...path: string[]): string | undefined {
  let current = node;
  for (let index = 0; index < path.length && current !== undefined; index += 1)
    current = childNode(current, path[index]);
  if (current === undefined) return undefined;
  const text = current.text.trim();
  return text === '' ? undefined : text;
}
