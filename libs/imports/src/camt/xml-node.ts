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

const XML_SPECIALS = /[<>&"]/g;
const ESCAPED: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' };

function escapeXml(text: string): string {
  // A scan by char code: cheaper than a regular expression on the short texts camt has, twenty per entry.
  let special = false;
  for (let index = 0; index < text.length && !special; index += 1) {
    const code = text.charCodeAt(index);
    special = code === 60 || code === 62 || code === 38 || code === 34; // < > & "
  }
  if (!special) return text;
  return text.replace(XML_SPECIALS, (char) => ESCAPED[char] ?? char);
}

interface Serialized {
  text: string;
}

/**
 * Compact XML text of a subtree (indentation dropped), stopping once charsMax is reached. One growing string:
 * V8 joins the pieces as a rope and flattens it once, when the text is first read.
 */
export function serializeNode(node: XmlNode, charsMax: number): string {
  const out: Serialized = { text: '' };
  writeNode(node, out, charsMax);
  return out.text.length > charsMax ? out.text.slice(0, charsMax) : out.text;
}

/** Appends the node to out; false once out has reached charsMax (nothing more is written then). */
function writeNode(node: XmlNode, out: Serialized, charsMax: number): boolean {
  const name = node.name;
  if (node.attributes === NO_ATTRIBUTES) out.text += `<${name}>`;
  else {
    let start = `<${name}`;
    for (const attribute in node.attributes) start += ` ${attribute}="${escapeXml(node.attributes[attribute])}"`;
    out.text += `${start}>`;
  }
  if (node.text !== '') out.text += escapeXml(node.text.trim());
  if (out.text.length >= charsMax) return false;
  const children = node.children;
  for (let index = 0; index < children.length; index += 1) if (!writeNode(children[index], out, charsMax)) return false;
  out.text += `</${name}>`;
  return out.text.length < charsMax;
}
