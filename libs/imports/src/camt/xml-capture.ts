import { ownText } from '../own-text';
import { type StatementError, statementError } from '../statement-items';
import { appendChild, NO_ATTRIBUTES, newNode, type XmlNode } from './xml-node';

/** Text of one element; camt's longest field (AddtlNtryInf) is 500 characters. */
export const XML_TEXT_CHARS_MAX = 4096;

export interface CaptureLimits {
  /** Element nodes attached at once. */
  nodesMax: number;
  /** Characters held at once: element names, attribute names and values, texts, and what is retained(). */
  charsMax: number;
}

// `attributes` is NO_ATTRIBUTES for an element without any (most of them): no loop over an empty object then.

function ownNode(name: string, line: number, attributes: Record<string, string>): XmlNode {
  if (attributes === NO_ATTRIBUTES) return newNode(ownText(name), line, NO_ATTRIBUTES);
  const node = newNode(ownText(name), line, {});
  for (const attribute in attributes) node.attributes[ownText(attribute)] = ownText(attributes[attribute]);
  return node;
}

function nodeChars(name: string, attributes: Record<string, string>): number {
  let chars = name.length;
  if (attributes === NO_ATTRIBUTES) return chars;
  for (const attribute in attributes) chars += attribute.length + attributes[attribute].length;
  return chars;
}

/** Adds the subtree's node count and characters to `total` (one object for the whole walk). */
function addSubtree(node: XmlNode, total: { nodes: number; chars: number }): void {
  total.nodes += 1;
  total.chars += nodeChars(node.name, node.attributes) + node.text.length;
  const children = node.children;
  for (let index = 0; index < children.length; index += 1) addSubtree(children[index], total);
}

/**
 * Builds the element tree of one subtree from SAX events, with bounds on its element count, on each
 * element's text and on all the characters it holds. Going past a bound records a problem (the subtree is
 * then refused) and from then on nothing more is kept, instead of growing. Every kept string is an own copy
 * (see ownText), so the characters counted are the memory held.
 */
export class XmlCapture {
  readonly problems: StatementError[] = [];
  readonly root: XmlNode;
  private readonly stack: XmlNode[];
  private nodeCount = 1;
  private chars: number;

  constructor(
    root: { name: string; line: number; attributes: Record<string, string> },
    private readonly limits: CaptureLimits,
    private readonly label: string,
  ) {
    this.root = ownNode(root.name, root.line, root.attributes);
    this.stack = [this.root];
    this.chars = nodeChars(root.name, root.attributes);
  }

  get depth(): number {
    return this.stack.length;
  }

  get refused(): boolean {
    return this.problems.length > 0;
  }

  open(name: string, line: number, attributes: Record<string, string>): void {
    if (this.nodeCount >= this.limits.nodesMax) {
      this.refuse(line, `${this.label} has more than ${this.limits.nodesMax} XML elements`);
    } else if (this.retain(line, nodeChars(name, attributes))) {
      const node = ownNode(name, line, attributes);
      appendChild(this.stack[this.stack.length - 1], node);
      this.nodeCount += 1;
      this.stack.push(node);
      return;
    }
    // Not attached, and holding nothing: it only keeps open/close paired on the stack.
    this.stack.push(newNode('', line, NO_ATTRIBUTES));
  }

  text(text: string): void {
    if (text.trim() === '' || this.stack.length === 0 || this.refused) return;
    const node = this.stack[this.stack.length - 1];
    if (node.text.length + text.length > XML_TEXT_CHARS_MAX) {
      this.refuse(node.line, `<${node.name}> has more than ${XML_TEXT_CHARS_MAX} characters of text`);
      return;
    }
    // Copied once, when the element closes: until then only an open element's text holds on to its chunk.
    if (this.retain(node.line, text.length)) node.text += text;
  }

  close(): XmlNode | undefined {
    const node = this.stack.pop();
    // An own copy, and one flat string instead of the chain of pieces that += built.
    if (node !== undefined && node.text !== '') node.text = ownText(node.text);
    return node;
  }

  /** Drops a just-closed child from its parent (the current top), once it has been condensed elsewhere. */
  detach(node: XmlNode): void {
    const parent = this.stack[this.stack.length - 1];
    const index = parent.children.lastIndexOf(node);
    if (index === -1) return;
    parent.children.splice(index, 1);
    const total = { nodes: 0, chars: 0 };
    addSubtree(node, total);
    this.nodeCount -= total.nodes;
    this.chars -= total.chars;
  }

  /** Counts `chars` more held for this subtree (its own nodes, or what was condensed of them); false if too many. */
  retain(line: number, chars: number): boolean {
    if (this.refused) return false;
    if (this.chars + chars > this.limits.charsMax) {
      this.refuse(line, `${this.label} holds more than ${this.limits.charsMax} characters of text and attributes`);
      return false;
    }
    this.chars += chars;
    return true;
  }

  refuse(line: number, reason: string): void {
    if (!this.problems.some((problem) => problem.reason === reason)) this.problems.push(statementError(line, reason));
  }
}
