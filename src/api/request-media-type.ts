// Which of an operation's declared body media types a request's Content-Type names: the same one, the same with
// `charset=utf-8` assumed, or a declared wildcard (`*/*`, `application/*`). None answers 415.
import { ContractFailure } from './contract-failure.ts';
import type { RequestBodyContract } from './contract-types.ts';

type Content = RequestBodyContract['contents'][number];

/** A media type with its parameters sorted, `charset` lower-cased and `boundary` left out. */
class MediaType {
  readonly essence: string | null = null;
  private readonly parameters: Record<string, string> = {};

  constructor(header: string | undefined) {
    if (!header) return;
    for (const [, rawKey, rawValue] of header.matchAll(/;\s*([^=]+)=([^;]+)/g)) {
      const key = rawKey.toLowerCase();
      this.parameters[key] = key === 'charset' ? rawValue.toLowerCase() : rawValue;
    }
    this.essence = header.split(';')[0].toLowerCase().trim();
  }

  normalize(exclude: readonly string[] = ['boundary']): string | undefined {
    if (!this.essence) return undefined;
    const keys = Object.keys(this.parameters)
      .sort()
      .filter((key) => !exclude.includes(key));
    return this.essence + keys.map((key) => `; ${key}=${this.parameters[key]}`).join('');
  }

  /** The bare type, and with `charset=utf-8` when no charset was given. */
  equivalents(): string[] {
    if (!this.essence) return [];
    const types = [this.essence];
    if (!this.parameters.charset)
      types.push(new MediaType(`${this.normalize(['charset'])}; charset=utf-8`).normalize()!);
    return types;
  }
}

/** The declared content the request's body is checked against, or null when an absent body is allowed. */
export function declaredContent(body: RequestBodyContract, header: string | undefined): Content | null {
  const requested = new MediaType(header);
  const normalized = requested.normalize();
  const declared = body.contents.map((content) => ({ content, normalized: new MediaType(content.type).normalize() }));
  const exact = declared.find((entry) => entry.normalized === normalized);
  if (exact) return exact.content;
  const equivalents = requested.equivalents();
  const equivalent = declared.find((entry) => equivalents.includes(entry.normalized!));
  if (equivalent) return equivalent.content;
  for (const content of [...body.contents].sort((a, b) => (a.type < b.type ? 1 : a.type > b.type ? -1 : 0))) {
    if (content.type === '*/*') return content;
    if (!/^[a-z]+\/\*$/.test(content.type)) continue;
    if (normalized !== undefined && new RegExp(`^${content.type.split('/', 1)[0]}/.+$`).test(normalized))
      return content;
  }
  if (normalized === undefined && body.required === false) return null;
  throw new ContractFailure(415, `unsupported media type ${normalized}`);
}
