// A link a package's metadata offers (home page, repository, documentation): kept only when it is an http(s) URL,
// so what a client or page shows cannot be a javascript: or file: link.

export function httpUrlOrEmpty(text: unknown): string {
  if (typeof text !== 'string') return '';
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? text : '';
  } catch {
    return '';
  }
}
