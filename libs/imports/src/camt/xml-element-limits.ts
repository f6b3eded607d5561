import type { XmlStartTag } from './xml-tokenizer';

// Bounds on a camt document's XML: its nesting, its tokens, and one element's start tag, checked on every element.

/** camt nesting is about 15 deep; anything far deeper is not a bank statement. */
export const XML_DEPTH_MAX = 40;
/** One token (text, attribute, comment) of this size is refused, which bounds what the tokenizer holds back. */
export const XML_CHARS_WITHOUT_EVENT_MAX = 1024 * 1024;

/** camt puts at most a currency (Ccy) on an element, namespace declarations on the root. */
export const XML_ATTRIBUTES_PER_ELEMENT_MAX = 8;
/** Names and values of all attributes of one element. */
export const XML_ATTRIBUTE_CHARS_PER_ELEMENT_MAX = 1024;
/** Element and attribute names, prefix included; camt's longest is about 20. */
export const XML_NAME_CHARS_MAX = 100;
/**
 * One start tag, read whole before it is told of: within the bounds above one is about 2,000 characters, and
 * white space between its attributes may make up the rest.
 */
export const XML_START_TAG_CHARS_MAX = 16 * 1024;

export function isEmpty(object: object): boolean {
  for (const _key in object) return false;
  return true;
}

/**
 * Why an element is refused for its name or attributes: the reader keeps every open element's name and the
 * entry's attributes until they close, so an element past these bounds ends the reading, it is not kept.
 */
export function elementProblem(tag: XmlStartTag): string | null {
  if (tag.name.length > XML_NAME_CHARS_MAX) return `an element name is longer than ${XML_NAME_CHARS_MAX} characters`;
  if (isEmpty(tag.attributes)) return null;
  let count = 0;
  let chars = 0;
  for (const name in tag.attributes) {
    if (name.length > XML_NAME_CHARS_MAX)
      return `<${tag.name}> has an attribute name longer than ${XML_NAME_CHARS_MAX} characters`;
    count += 1;
    chars += name.length + tag.attributes[name].length;
  }
  if (count > XML_ATTRIBUTES_PER_ELEMENT_MAX)
    return `<${tag.name}> has ${count} attributes, more than ${XML_ATTRIBUTES_PER_ELEMENT_MAX}`;
  if (chars > XML_ATTRIBUTE_CHARS_PER_ELEMENT_MAX)
    return `<${tag.name}> has ${chars} characters of attributes, more than ${XML_ATTRIBUTE_CHARS_PER_ELEMENT_MAX}`;
  return null;
}
