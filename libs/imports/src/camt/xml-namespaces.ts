import type { XmlStartTag } from './xml-tokenizer';
import { isEmpty } from './xml-element-limits';

// Namespaces, resolved by the camt reader. camt declares its namespace once, on the root, so here an element
// that declares nothing costs one search for a colon. The problems found are those saxes' namespace mode (the
// reference of xml-namespaces.spec.ts) refuses a document for, worded as it words them, and in the same order
// for one start tag.

const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NAMESPACE = 'http://www.w3.org/2000/xmlns/';
/** camt elements declare no namespaces beyond the root's; each element that declares any adds a frame. */
const PREDEFINED: Readonly<Record<string, string>> = { xml: XML_NAMESPACE, xmlns: XMLNS_NAMESPACE };

/** An element's name split at its colon, as saxes' qname(); problem set when the name is not a qname. */
export interface QualifiedName {
  prefix: string;
  local: string;
}

export class XmlProblem extends Error {
  override readonly name = 'XmlProblem';
}

export function qualifiedName(name: string): QualifiedName {
  const colon = name.indexOf(':');
  if (colon === -1) return { prefix: '', local: name };
  const local = name.slice(colon + 1);
  const prefix = name.slice(0, colon);
  if (prefix === '' || local === '' || local.includes(':')) throw new XmlProblem(`malformed name: ${name}.`);
  return { prefix, local };
}

function pairProblem(prefix: string, uri: string): string | null {
  if (prefix === 'xml' && uri !== XML_NAMESPACE) return `xml prefix must be bound to ${XML_NAMESPACE}.`;
  if (prefix === 'xmlns' && uri !== XMLNS_NAMESPACE) return `xmlns prefix must be bound to ${XMLNS_NAMESPACE}.`;
  if (uri === XMLNS_NAMESPACE) {
    return prefix === ''
      ? `the default namespace may not be set to ${uri}.`
      : `may not assign a prefix (even "xmlns") to the URI ${XMLNS_NAMESPACE}.`;
  }
  if (uri === XML_NAMESPACE && prefix !== 'xml') {
    return prefix === ''
      ? `the default namespace may not be set to ${uri}.`
      : 'may not assign the xml namespace to another prefix.';
  }
  return null;
}

interface Frame {
  depth: number;
  prefixes: Record<string, string>;
}

/** The namespace declarations in scope, element by element; open() and close() are told every tag, in order. */
export class XmlNamespaces {
  private readonly frames: Frame[] = [];
  /** Elements open. */
  private depth = 0;
  /** What open() answers for an element without prefix or attributes: one object, refilled each time. */
  private readonly plain = { local: '', uri: '' };

  /**
   * The element's local name, and its namespace URI for the root (the only one a camt reader asks about; ''
   * for the others); throws XmlProblem with saxes' words for what its namespace mode refuses.
   */
  open(tag: XmlStartTag, xml11: boolean): { local: string; uri: string } {
    const withUri = this.depth === 0;
    const attributes = tag.attributes;
    // Most camt elements: no prefix, no attribute, not the root. Nothing to resolve, nothing made.
    if (!withUri && tag.name.indexOf(':') === -1 && isEmpty(attributes)) {
      this.depth += 1;
      this.plain.local = tag.name;
      return this.plain;
    }
    let prefixed = false;
    let declared: Record<string, string> | null = null;
    for (const name in attributes) {
      const { prefix, local } = qualifiedName(name);
      if (prefix === '' && name !== 'xmlns') continue;
      prefixed = true;
      if (prefix !== 'xmlns' && name !== 'xmlns') continue;
      const uri = attributes[name].trim();
      if (prefix === 'xmlns' && !xml11 && uri === '')
        throw new XmlProblem('invalid attempt to undefine prefix in XML 1.0');
      const bound = prefix === 'xmlns' ? local : '';
      declared ??= {};
      declared[bound] = uri;
      const problem = pairProblem(bound, uri);
      if (problem !== null) throw new XmlProblem(problem);
    }
    if (declared !== null) this.frames.push({ depth: this.depth, prefixes: declared });
    const { prefix, local } = qualifiedName(tag.name);
    if (prefix === 'xmlns') throw new XmlProblem('tags may not have "xmlns" as prefix.');
    const uri = prefix === '' && !withUri ? '' : (this.resolve(prefix) ?? '');
    if (prefix !== '' && uri === '') throw new XmlProblem(`unbound namespace prefix: ${JSON.stringify(prefix)}.`);
    if (prefixed) this.checkAttributes(attributes);
    this.depth += 1;
    return { local, uri };
  }

  close(): void {
    this.depth -= 1;
    const frames = this.frames;
    if (frames.length > 0 && frames[frames.length - 1].depth === this.depth) frames.pop();
  }

  private resolve(prefix: string): string | undefined {
    for (let index = this.frames.length - 1; index >= 0; index -= 1) {
      const uri = this.frames[index].prefixes[prefix];
      if (uri !== undefined) return uri;
    }
    return PREDEFINED[prefix];
  }

  /** Unbound attribute prefixes and two attributes of one expanded name, in the attributes' order. */
  private checkAttributes(attributes: Record<string, string>): void {
    const seen = new Set<string>();
    for (const name in attributes) {
      const { prefix, local } = qualifiedName(name);
      let expanded = name;
      if (prefix !== '') {
        const uri = this.resolve(prefix);
        if (uri === undefined) throw new XmlProblem(`unbound namespace prefix: ${JSON.stringify(prefix)}.`);
        expanded = `{${uri}}${local}`;
      }
      if (seen.has(expanded)) throw new XmlProblem(`duplicate attribute: ${expanded}.`);
      seen.add(expanded);
    }
  }
}

/** An element's attributes by local name (a later one of the same local name wins). */
export function localAttributes(attributes: Record<string, string>): Record<string, string> {
  const byLocal: Record<string, string> = {};
  for (const name in attributes) {
    const colon = name.indexOf(':');
    byLocal[colon === -1 ? name : name.slice(colon + 1)] = attributes[name];
  }
  return byLocal;
}
