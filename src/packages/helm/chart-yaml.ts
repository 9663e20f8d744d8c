// A chart's Chart.yaml (helm.sh/docs/topics/charts; Forgejo: modules/packages/helm/metadata.go), parsed with the
// yaml library: the fields index.yaml repeats for the chart version, with name and version checked (400).
import type * as YAML from 'yaml';
import { BadRequestError } from '../../domain/errors.ts';

/** A chart name: letters, digits, `-`, `_` and `.`, as one path segment. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;
/** SemVer 2, with the leading `v` and short forms Helm accepts. */
const VERSION = /^v?\d+(?:\.\d+){0,2}(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** Chart.yaml's fields under their own names (index.yaml repeats them as they are). */
export type ChartMetadata = Record<string, unknown> & { apiVersion: string; name: string; version: string };

const invalid = (why: string) => new BadRequestError(`the chart is invalid: ${why}`);

export function parseChartYaml(text: string): ChartMetadata {
  let document: unknown;
  try {
    document = (require('yaml') as typeof YAML).parse(text, { maxAliasCount: 100, prettyErrors: false });
  } catch (error) {
    throw invalid(`Chart.yaml is not valid YAML (${(error as Error).message})`);
  }
  if (!document || typeof document !== 'object' || Array.isArray(document)) throw invalid('Chart.yaml is not a map');
  const chart = document as Record<string, unknown>;
  const { apiVersion, name, version, type } = chart;
  if (typeof apiVersion !== 'string' || apiVersion === '') throw invalid('apiVersion is missing');
  if (type !== undefined && type !== 'application' && type !== 'library') throw invalid(`unknown type ${String(type)}`);
  if (typeof name !== 'string' || !NAME.test(name)) throw invalid('the name is invalid');
  const text_ = typeof version === 'number' ? String(version) : version;
  if (typeof text_ !== 'string' || text_.length > 128 || !VERSION.test(text_)) throw invalid('the version is invalid');
  if (typeof chart.home === 'string' && !/^https?:\/\//.test(chart.home)) delete chart.home;
  return { ...chart, apiVersion, name, version: text_ };
}

/** The file a chart version is stored and downloaded as: `<name>-<version>.tgz`, lower-cased. */
export function chartFileName(chart: Pick<ChartMetadata, 'name' | 'version'>): string {
  return `${chart.name}-${chart.version}.tgz`.toLowerCase();
}
