import { type StatementError, statementError } from '../statement-items';
import { newNode, type XmlNode } from './xml-node';

/** Text of one element; camt's longest field (AddtlNtryInf) is 500 characters. */
export const XML_TEXT_CHARS_MAX = 4096;

function countNodes(node: XmlNode): number {
  return node.children.reduce((total, child) => total + countNodes(child), 1);
}

/**
 * Builds the element tree of one subtree from SAX events, with a bound on its element count and on each
 * element's text. Going past a bound records a problem (the subtree is then refused) instead of growing.
 */
export class XmlCapture {
  readonly problems: StatementError[] = [];
  private readonly stack: XmlNode[];
  private nodeCount = 1;

  constructor(
    readonly root: XmlNode,
    private readonly nodesMax: number,
    private readonly label: string,
  ) {
    this.stack = [root];
  }

  get depth(): number {
    return this.stack.length;
  }

  open(name: string, line: number, attributes: Record<string, string>): void {
    const node = newNode(name, line, attributes);
    if (this.nodeCount >= this.nodesMax) {
      // Still tracked on the stack so that open/close stay paired, but not attached: memory stays bounded.
      this.refuse(line, `${this.label} has more than ${this.nodesMax} XML elements`);
    } else {
      this.stack[this.stack.length - 1].children.push(node);
      this.nodeCount += 1;
    }
    this.stack.push(node);
  }

  text(text: string): void {
    if (text.trim() === '' || this.stack.length === 0) return;
    const node = this.stack[this.stack.length - 1];
    node.text += text;
    if (node.text.length > XML_TEXT_CHARS_MAX) {
      this.refuse(node.line, `<${node.name}> has more than ${XML_TEXT_CHARS_MAX} characters of text`);
      node.text = node.text.slice(0, XML_TEXT_CHARS_MAX);
    }
  }

  close(): XmlNode | undefined {
    return this.stack.pop();
  }

  /** Drops a just-closed child from its parent (the current top), once it has been condensed elsewhere. */
  detach(node: XmlNode): void {
    const parent = this.stack[this.stack.length - 1];
    const index = parent.children.lastIndexOf(node);
    if (index === -1) return;
    parent.children.splice(index, 1);
    this.nodeCount -= countNodes(node);
  }

  refuse(line: number, reason: string): void {
    if (!this.problems.some((problem) => problem.reason === reason)) this.problems.push(statementError(line, reason));
  }
}
