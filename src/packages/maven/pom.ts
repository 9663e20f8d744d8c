// What a version keeps from its POM (Forgejo's maven metadata): name, description, project URL, licences and
// dependencies. A POM that is not XML with a <project> answers 400.
import { XMLParser } from 'fast-xml-parser';
import { BadRequestError } from '../../domain/errors.ts';

export interface MavenDependency {
  group_id: string;
  artifact_id: string;
  version: string;
}

export interface MavenMetadata {
  group_id: string;
  artifact_id: string;
  name: string;
  description: string;
  project_url: string;
  licenses: string[];
  dependencies: MavenDependency[];
}

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (_name, path) => path === 'project.licenses.license' || path === 'project.dependencies.dependency',
});

type Node = Record<string, unknown>;

const text = (node: Node | undefined, key: string): string => {
  const value = node?.[key];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
};

const nodes = (value: unknown): Node[] =>
  Array.isArray(value) ? value.filter((item): item is Node => typeof item === 'object' && item !== null) : [];

function httpUrlOrEmpty(value: string): string {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? value : '';
  } catch {
    return '';
  }
}

export function parsePom(xml: string): MavenMetadata {
  let parsed: Node;
  try {
    parsed = parser.parse(xml, true) as Node;
  } catch {
    throw new BadRequestError('the POM is not well-formed XML');
  }
  const project = parsed.project;
  if (typeof project !== 'object' || project === null) throw new BadRequestError('the POM has no <project>');
  const pom = project as Node;
  const parent = typeof pom.parent === 'object' && pom.parent !== null ? (pom.parent as Node) : undefined;
  return {
    group_id: text(pom, 'groupId') || text(parent, 'groupId'),
    artifact_id: text(pom, 'artifactId'),
    name: text(pom, 'name'),
    description: text(pom, 'description'),
    project_url: httpUrlOrEmpty(text(pom, 'url')),
    licenses: nodes((pom.licenses as Node | undefined)?.license)
      .map((license) => text(license, 'name'))
      .filter((name) => name !== ''),
    dependencies: nodes((pom.dependencies as Node | undefined)?.dependency).map((dependency) => ({
      group_id: text(dependency, 'groupId'),
      artifact_id: text(dependency, 'artifactId'),
      version: text(dependency, 'version'),
    })),
  };
}
