// The Content-Type a download is served with, from its first bytes: a few binary formats by their signature, UTF-8
// text as plain text, anything else as octet-stream. Never HTML or SVG, so an uploaded file cannot run script in
// the server's origin (Forgejo: modules/typesniffer, routers/common/serve.go serve only safe types as themselves).

const SIGNATURES: Array<[RegExp, string]> = [
  [/^\x89PNG\r\n\x1a\n/, 'image/png'],
  [/^\xff\xd8\xff/, 'image/jpeg'],
  [/^GIF8[79]a/, 'image/gif'],
  [/^RIFF....WEBP/s, 'image/webp'],
  [/^%PDF-/, 'application/pdf'],
  [/^PK\x03\x04/, 'application/zip'],
  [/^\x1f\x8b/, 'application/gzip'],
];

export const SNIFF_BYTES = 512;

export function sniffContentType(head: Buffer): string {
  const latin1 = head.toString('latin1');
  for (const [signature, type] of SIGNATURES) if (signature.test(latin1)) return type;
  if (head.length > 0 && !head.includes(0) && isUtf8Prefix(head)) return 'text/plain; charset=utf-8';
  return 'application/octet-stream';
}

/** Valid UTF-8, allowing a character cut off at the end of the sample. */
function isUtf8Prefix(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}
