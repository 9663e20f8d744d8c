import type { components } from '../../generated/api.d.ts';
import type { TemplateLabel } from '../domain/label-template.ts';
import type { GitignoreTemplate, LicenseTemplate } from '../domain/template.ts';

type Schemas = components['schemas'];

// GitHub's API carries this sentence in every licence answer; Forgejo repeats it for compatibility.
const LICENSE_IMPLEMENTATION =
  'Create a text file (typically named LICENSE or LICENSE.txt) in the root of your source code and copy the text of the license into the file';

/** Go's url.PathEscape: a path segment, keeping the sub-delimiters a segment may hold as they are. */
function pathSegment(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
    .replace(/%(24|26|2B|3A|3D|40)/g, (escaped) => decodeURIComponent(escaped));
}

export function toGitignoreTemplateInfo(template: GitignoreTemplate): Schemas['GitignoreTemplateInfo'] {
  return { name: template.name, source: template.source };
}

/** A licence is named by its SPDX id: key and name are both the id. */
export function toLicenseListEntry(name: string, rootUrl: string): Schemas['LicensesTemplateListEntry'] {
  return { key: name, name, url: `${rootUrl}api/v1/licenses/${pathSegment(name)}` };
}

export function toLicenseTemplateInfo(template: LicenseTemplate, rootUrl: string): Schemas['LicenseTemplateInfo'] {
  return { ...toLicenseListEntry(template.name, rootUrl), body: template.body, implementation: LICENSE_IMPLEMENTATION };
}

/** Colours are shown without their `#`. */
export function toLabelTemplate(label: TemplateLabel): Schemas['LabelTemplate'] {
  return {
    name: label.name,
    color: label.color.replace(/^#/, ''),
    description: label.description,
    exclusive: label.exclusive,
  };
}
