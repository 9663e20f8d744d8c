// The compact index Bundler reads first (Forgejo: routers/api/packages/rubygems ServeVersionsFile and
// ServePackageInfo; the format is rubygems.org's): `versions`, one line per gem with its versions and the MD5 of its
// info file, and `info/NAME`, one line per version with its runtime dependencies, the .gem's SHA-256 and the Ruby and
// RubyGems requirements. Bundler checks each body against its ETag, which is therefore the MD5 of the plain body.
import { createHash } from 'node:crypto';
import type { IndexDocument } from '../core/index-document.ts';
import type { GemSpec, Requirement } from './gem-spec.ts';

/** A stored version of a gem: its specification and the .gem's SHA-256 (hex). */
export interface IndexedGem {
  spec: GemSpec;
  sha256: string;
}

const HEADER = '---\n';

function md5Document(body: string): IndexDocument {
  return { body, etag: `"${createHash('md5').update(body).digest('hex')}"` };
}

/** `>= 1.0&< 2`: a requirement as the compact index writes it. */
const requirement = (pairs: Requirement) => pairs.map(([operator, version]) => `${operator} ${version}`).join('&');

/** The version as Bundler names it: with its platform unless that is `ruby`. */
const versionName = (gem: IndexedGem) =>
  gem.spec.platform === 'ruby' ? gem.spec.version : `${gem.spec.version}-${gem.spec.platform}`;

function infoLine(gem: IndexedGem): string {
  const { spec } = gem;
  const dependencies = spec.runtimeDependencies.map((dep) => `${dep.name}:${requirement(dep.requirement)}`).join(',');
  const requirements = [`checksum:${gem.sha256}`];
  if (spec.requiredRubyVersion.length > 0) requirements.push(`ruby:${requirement(spec.requiredRubyVersion)}`);
  if (spec.requiredRubygemsVersion.length > 0)
    requirements.push(`rubygems:${requirement(spec.requiredRubygemsVersion)}`);
  return `${versionName(gem)} ${dependencies}|${requirements.join(',')}\n`;
}

/** info/NAME of a gem's versions, oldest first. */
export function infoDocument(versions: readonly IndexedGem[]): IndexDocument {
  return md5Document(HEADER + versions.map(infoLine).join(''));
}

/** `versions` of every gem, by name, with the ETag of each gem's info file. */
export function versionsDocument(
  gems: ReadonlyMap<string, readonly IndexedGem[]>,
  info: (lowerName: string) => IndexDocument,
): IndexDocument {
  const lines = [...gems.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([lowerName, versions]) => {
      const checksum = info(lowerName).etag.slice(1, -1);
      return `${versions[0].spec.name} ${versions.map(versionName).join(',')} ${checksum}\n`;
    });
  return md5Document(HEADER + lines.join(''));
}
