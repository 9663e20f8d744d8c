// NuGet versions (learn.microsoft.com/nuget/concepts/package-versioning): up to four numeric parts, a SemVer 2.0
// pre-release label and build metadata. A version is stored in NuGet's normal form — three parts at least, a
// fourth only when it is not zero, no leading zeros, no build metadata — which is what clients ask for, lower-cased.

const VERSION =
  /^(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-.]+)?$/;

interface ParsedVersion {
  parts: number[];
  /** The pre-release label's identifiers; empty for a release. */
  prerelease: string[];
}

function parse(text: string): ParsedVersion | null {
  const match = VERSION.exec(text.trim());
  if (!match) return null;
  const parts = match.slice(1, 5).map((part) => Number(part ?? 0));
  if (parts.some((part) => !Number.isSafeInteger(part))) return null;
  return { parts, prerelease: match[5] ? match[5].split('.') : [] };
}

/** The normal form of a version, or null when it is not one NuGet accepts. */
export function normalizeNugetVersion(text: string): string | null {
  if (text.length > 64) return null;
  const parsed = parse(text);
  if (!parsed) return null;
  const [major, minor, patch, revision] = parsed.parts;
  const release = revision === 0 ? `${major}.${minor}.${patch}` : `${major}.${minor}.${patch}.${revision}`;
  return parsed.prerelease.length > 0 ? `${release}-${parsed.prerelease.join('.')}` : release;
}

export function isPrerelease(version: string): boolean {
  return (parse(version)?.prerelease.length ?? 0) > 0;
}

function compareIdentifiers(a: string, b: string): number {
  const numeric = (text: string) => /^\d+$/.test(text);
  if (numeric(a) && numeric(b)) return Number(a) - Number(b);
  if (numeric(a)) return -1;
  if (numeric(b)) return 1;
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** NuGet's order: the numeric parts, then a pre-release before its release, labels compared SemVer's way. */
export function compareNugetVersions(a: string, b: string): number {
  const [x, y] = [parse(a), parse(b)];
  if (!x || !y) return a.localeCompare(b);
  for (let i = 0; i < 4; i++) if (x.parts[i] !== y.parts[i]) return x.parts[i] - y.parts[i];
  if (x.prerelease.length === 0 || y.prerelease.length === 0) return y.prerelease.length - x.prerelease.length;
  for (let i = 0; i < Math.min(x.prerelease.length, y.prerelease.length); i++) {
    const order = compareIdentifiers(x.prerelease[i], y.prerelease[i]);
    if (order !== 0) return order;
  }
  return x.prerelease.length - y.prerelease.length;
}
