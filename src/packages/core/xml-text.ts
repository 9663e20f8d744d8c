// XML written as text for the large generated indexes (RPM's repodata lists hold every file of every package):
// building a document tree first cost most of a rebuild. Values are escaped here, in one place.

/** Characters XML 1.0 cannot carry at all (a package's description may hold them); libxml2 refuses the file. */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const SPECIAL = /[&<>"']/g;
const HAS_SPECIAL = /[&<>"']/;
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** A value as element text or an attribute value: characters XML cannot hold dropped, the rest escaped. */
export function xmlEscape(value: string | number): string {
  const text = String(value).replace(NOT_XML, '');
  return HAS_SPECIAL.test(text) ? text.replace(SPECIAL, (c) => ENTITY[c]) : text;
}

/** ` name="value"` for each attribute whose value is not undefined. */
export function xmlAttributes(attributes: Record<string, string | number | undefined>): string {
  let out = '';
  for (const name in attributes) {
    const value = attributes[name];
    if (value !== undefined) out += ` ${name}="${xmlEscape(value)}"`;
  }
  return out;
}

/** An element with attributes and escaped text; `<name/>` when the text is empty. */
export function xmlElement(
  name: string,
  text: string | number,
  attributes: Record<string, string | number | undefined> = {},
): string {
  const content = xmlEscape(text);
  const open = `<${name}${xmlAttributes(attributes)}`;
  return content === '' ? `${open}/>` : `${open}>${content}</${name}>`;
}
