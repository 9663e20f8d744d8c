// Where a subsystem (package blobs, avatars, attachments) keeps its files, read from app.ini with Forgejo's keys and Forgejo's
// precedence (modules/setting/storage.go and its tests):
//  1. the subsystem's own section ([packages]; for avatars [avatar], typed by [picture] AVATAR_STORAGE_TYPE) with
//     STORAGE_TYPE local or minio and no [storage.<type>] section is the whole configuration;
//  2. a STORAGE_TYPE naming a section ([storage.minio], [storage.my_s3]) takes that section;
//  3. else [storage.<subsystem>] if it sets a type or a PATH;
//  4. else [storage], local by default.
// A [storage.x] section falls back to [storage] for keys it lacks (go-ini's child sections). The own section,
// unless it was the whole configuration, still overrides PATH, MINIO_BUCKET and MINIO_BASE_PATH. Each subsystem
// gets its own folder: <APP_DATA_PATH>/<name> locally, <name>/ in the bucket, under a base path given in [storage].
import { memberOf } from '../lib/member-of.ts';
import path from 'node:path';
import { ConfigError } from './config-error.ts';

export interface LocalStorageSettings {
  readonly type: 'local';
  readonly path: string;
}

export interface MinioStorageSettings {
  readonly type: 'minio';
  /** host[:port], as Forgejo takes it; the scheme comes from useSsl. */
  readonly endpoint: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly bucket: string;
  readonly location: string;
  readonly useSsl: boolean;
  /** Prefix of every object key of the subsystem, ending in '/'. */
  readonly basePath: string;
}

export type StorageSettings = LocalStorageSettings | MinioStorageSettings;

export type IniSections = ReadonlyMap<string, ReadonlyMap<string, string>>;

const STORAGE_TYPES = ['local', 'minio'] as const;
type StorageType = (typeof STORAGE_TYPES)[number];

// Forgejo's defaults for the [storage] keys.
const MINIO_DEFAULTS = {
  MINIO_ENDPOINT: 'localhost:9000',
  MINIO_ACCESS_KEY_ID: '',
  MINIO_SECRET_ACCESS_KEY: '',
  MINIO_BUCKET: 'gitea',
  MINIO_LOCATION: 'us-east-1',
  MINIO_USE_SSL: 'false',
  MINIO_BASE_PATH: '',
} as const;

/** The keys a [storage], [storage.<name>] or [avatar] section may hold. */
export const STORAGE_KEYS: Record<string, true> = Object.fromEntries(
  ['STORAGE_TYPE', 'PATH', ...Object.keys(MINIO_DEFAULTS)].map((key) => [key, true]),
);

const isStorageType = memberOf(STORAGE_TYPES);

/**
 * Which section holds the configuration: the subsystem's own, a [storage.<type>] section, [storage.<name>], or
 * [storage] itself (the default, whose folders are per subsystem).
 */
interface Target {
  readonly kind: 'own' | 'type' | 'named' | 'default';
  readonly section: string;
  readonly type: StorageType;
}

export interface Subsystem {
  /** The folder name, and the X of [storage.X]. */
  readonly name: string;
  /** The subsystem's own section, when it has one. */
  readonly ownSection?: string;
  /** A storage type given elsewhere ([picture] AVATAR_STORAGE_TYPE); it comes before the own section's. */
  readonly type?: string;
}

class StorageResolver {
  constructor(private readonly sections: IniSections) {}

  /** A key of the section itself. */
  own(section: string, key: string): string | undefined {
    return this.sections.get(section)?.get(key);
  }

  /** A key of the section or, for [a.b], of [a] when [a.b] lacks it. */
  inherited(section: string, key: string): string | undefined {
    for (let name = section; ; name = name.slice(0, name.lastIndexOf('.'))) {
      const value = this.own(name, key);
      if (value !== undefined) return value;
      if (!name.includes('.')) return undefined;
    }
  }

  /** The [storage.<type>] section named by a STORAGE_TYPE; null when a built-in type has no such section. */
  private typeSection(type: string, where: string): Target | null {
    const section = `storage.${type}`;
    if (!this.sections.has(section)) {
      if (isStorageType(type)) return null;
      throw new ConfigError(
        `${where} STORAGE_TYPE: "${type}" is neither local, minio nor the name of a [${section}] section`,
      );
    }
    const declared = this.inherited(section, 'STORAGE_TYPE') || type;
    if (!isStorageType(declared))
      throw new ConfigError(`[${section}] STORAGE_TYPE: "${declared}" is not one of ${STORAGE_TYPES.join(', ')}`);
    return { kind: 'type', section, type: declared };
  }

  target(subsystem: Subsystem): Target {
    const { ownSection } = subsystem;
    let type = subsystem.type ?? '';
    if (!type && ownSection !== undefined) {
      type = this.own(ownSection, 'STORAGE_TYPE') ?? '';
      if (isStorageType(type) && !this.sections.has(`storage.${type}`))
        return { kind: 'own', section: ownSection, type };
    }
    if (type) {
      const byType = this.typeSection(type, `[${ownSection}]`);
      if (byType) return byType;
    }
    const named = `storage.${subsystem.name}`;
    if (this.sections.has(named)) {
      const namedType = this.inherited(named, 'STORAGE_TYPE') ?? '';
      if (namedType) {
        const byType = this.typeSection(namedType, `[${named}]`);
        if (byType) return byType;
        if (isStorageType(namedType)) return { kind: 'named', section: named, type: namedType };
      }
      if (this.inherited(named, 'PATH')) return { kind: 'named', section: named, type: 'local' };
    }
    const defaultType = this.own('storage', 'STORAGE_TYPE') || 'local';
    if (!isStorageType(defaultType))
      throw new ConfigError(`[storage] STORAGE_TYPE: "${defaultType}" is not one of ${STORAGE_TYPES.join(', ')}`);
    return { kind: 'default', section: 'storage', type: defaultType };
  }

  /** The section whose PATH, MINIO_BUCKET and MINIO_BASE_PATH still win over the target's. */
  override(subsystem: Subsystem, target: Target): string | undefined {
    if (target.kind === 'own') return undefined;
    if (subsystem.ownSection !== undefined) return subsystem.ownSection;
    const named = `storage.${subsystem.name}`;
    return target.kind !== 'named' && this.sections.has(named) ? named : undefined;
  }

  /** A key of the target: the own section and [storage] are read alone, [storage.x] falls back to [storage]. */
  targetValue(target: Target, key: string): string | undefined {
    return target.kind === 'type' || target.kind === 'named'
      ? this.inherited(target.section, key)
      : this.own(target.section, key);
  }
}

function absoluteUnder(base: string, directory: string): string {
  return path.resolve(base, directory);
}

function localStorage(
  resolver: StorageResolver,
  subsystem: Subsystem,
  target: Target,
  override: string | undefined,
  appDataPath: string,
): LocalStorageSettings {
  const targetPath = resolver.own(target.section, 'PATH') || '';
  let fallback: string;
  if (!targetPath) fallback = path.join(appDataPath, subsystem.name);
  else
    fallback = absoluteUnder(
      appDataPath,
      target.kind === 'default' ? path.join(targetPath, subsystem.name) : targetPath,
    );
  const overridePath = override === undefined ? '' : resolver.own(override, 'PATH') || '';
  if (!overridePath) return { type: 'local', path: fallback };
  return {
    type: 'local',
    path: absoluteUnder(targetPath ? absoluteUnder(appDataPath, targetPath) : appDataPath, overridePath),
  };
}

function parseUseSsl(raw: string, where: string): boolean {
  const value = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off', ''].includes(value)) return false;
  throw new ConfigError(`${where} MINIO_USE_SSL: "${raw}" is not a boolean`);
}

function minioStorage(
  resolver: StorageResolver,
  subsystem: Subsystem,
  target: Target,
  override: string | undefined,
): MinioStorageSettings {
  const value = (key: keyof typeof MINIO_DEFAULTS) => resolver.targetValue(target, key) || MINIO_DEFAULTS[key];
  const endpoint = value('MINIO_ENDPOINT');
  if (endpoint.includes('/'))
    throw new ConfigError(
      `[${target.section}] MINIO_ENDPOINT: "${endpoint}" is not host[:port] (the scheme comes from MINIO_USE_SSL)`,
    );
  const targetBase = value('MINIO_BASE_PATH');
  let basePath = `${subsystem.name}/`;
  if (targetBase)
    basePath = target.kind === 'default' ? `${targetBase.replace(/\/+$/, '')}/${subsystem.name}/` : targetBase;
  const fromOverride = (key: string) => (override === undefined ? undefined : resolver.own(override, key) || undefined);
  return {
    type: 'minio',
    endpoint,
    accessKeyId: value('MINIO_ACCESS_KEY_ID'),
    secretAccessKey: value('MINIO_SECRET_ACCESS_KEY'),
    bucket: fromOverride('MINIO_BUCKET') ?? value('MINIO_BUCKET'),
    location: value('MINIO_LOCATION'),
    useSsl: parseUseSsl(value('MINIO_USE_SSL'), `[${target.section}]`),
    basePath: normalizeBasePath(fromOverride('MINIO_BASE_PATH') ?? basePath),
  };
}

/** Object keys have no leading slash, no empty segments, and a base path ends in '/' (or is empty). */
export function normalizeBasePath(basePath: string): string {
  const segments = basePath.split('/').filter((segment) => segment !== '' && segment !== '.');
  return segments.length === 0 ? '' : `${segments.join('/')}/`;
}

function resolveStorage(sections: IniSections, subsystem: Subsystem, appDataPath: string): StorageSettings {
  const resolver = new StorageResolver(sections);
  const target = resolver.target(subsystem);
  const override = resolver.override(subsystem, target);
  return target.type === 'local'
    ? localStorage(resolver, subsystem, target, override, appDataPath)
    : minioStorage(resolver, subsystem, target, override);
}

// A type, not an interface: settings.ts builds it among plain records.
export type SubsystemStorage = {
  readonly packages: StorageSettings;
  readonly avatars: StorageSettings;
  /** Release attachments ([attachment], as Forgejo names its section). */
  readonly attachments: StorageSettings;
};

/** The storage of each subsystem Anvil keeps files for. */
export function resolveSubsystemStorage(sections: IniSections, appDataPath: string): SubsystemStorage {
  // Forgejo always has an [avatar] section, its PATH defaulting to [picture] AVATAR_UPLOAD_PATH.
  const avatar = new Map(sections.get('avatar'));
  const uploadPath = sections.get('picture')?.get('AVATAR_UPLOAD_PATH');
  if (!avatar.has('PATH') && uploadPath !== undefined) avatar.set('PATH', uploadPath);
  const withAvatar = new Map(sections).set('avatar', avatar);
  return {
    packages: resolveStorage(
      sections,
      { name: 'packages', ownSection: sections.has('packages') ? 'packages' : undefined },
      appDataPath,
    ),
    attachments: resolveStorage(
      sections,
      { name: 'attachments', ownSection: sections.has('attachment') ? 'attachment' : undefined },
      appDataPath,
    ),
    avatars: resolveStorage(
      withAvatar,
      { name: 'avatars', ownSection: 'avatar', type: sections.get('picture')?.get('AVATAR_STORAGE_TYPE') },
      appDataPath,
    ),
  };
}
