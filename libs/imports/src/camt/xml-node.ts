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

export function newNode(name: string, line: number, attributes: Record<string, string>): XmlNode {
  return { name, line, attributes, text: '', children: [] };
}

export function childNode(node: XmlNode | undefined, name: string): XmlNode | undefined {
  return node?.children.find((candidate) => candidate.name === name);
}

export function childNodes(node: XmlNode | undefined, name: string): XmlNode[] {
  return node === undefined ? [] : node.children.filter((candidate) => candidate.name === name);
}

/** The node at a path of child names, e.g. nodeAt(entry, 'BookgDt', 'Dt'). */
export function nodeAt(node: XmlNode | undefined, ...path: string[]): XmlNode | undefined {
  let current = node;
  for (const name of path) current = childNode(current, name);
  return current;
}

/** Trimmed text at a path; undefined when absent or blank. */
export function textAt(node: XmlNode | undefined, ...path: string[]): string | undefined {
  const text = nodeAt(node, ...path)?.text.trim();
  return text === undefined || text === '' ? undefined : text;
}

const XML_SPECIALS = /[<>&"]/g;

function escapeXml(text: string): string {
  if (text.search(XML_SPECIALS) === -1) return text;
  return text.replace(
    XML_SPECIALS,
    (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[char] ?? char,
  );
}

/** Compact XML text of a subtree (indentation dropped), stopping once charsMax is reached. */
export function serializeNode(node: XmlNode, charsMax: number): string {
  const parts: string[] = [];
  let length = 0;
  const push = (part: string): boolean => {
    parts.push(part);
    length += part.length;
    return length < charsMax;
  };
  const walk = (current: XmlNode): boolean => {
    const attributes = Object.entries(current.attributes)
      .map(([name, value]) => ` ${name}="${escapeXml(value)}"`)
      .join('');
    if (!push(`<${current.name}${attributes}>${escapeXml(current.text.trim())}`)) return false;
    for (const child of current.children) if (!walk(child)) return false;
    return push(`</${current.name}>`);
  };
  walk(node);
  return parts.join('').slice(0, charsMax);
}
