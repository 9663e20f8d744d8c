// Label template files: a template's name is its file name without `.yaml`/`.yml`; where one folder has several
// files for a name, `.yaml` wins over `.yml` over no extension, and the custom folder wins over the built-in one
// (Forgejo: mergeCustomLabelFiles in modules/repository/init.go).
import type { TemplateSource } from './template-files.ts';

const EXTENSIONS = ['.yaml', '.yml', ''] as const;

export interface LabelTemplateFile {
  fileName: string;
  text: string;
}

export function labelTemplateName(fileName: string): string {
  return fileName.replace(/\.ya?ml$/, '');
}

export class LabelTemplateFiles {
  constructor(private readonly layers: readonly TemplateSource[]) {}

  names(): string[] {
    return [...new Set(this.layers.flatMap((layer) => layer.names().map(labelTemplateName)))].sort();
  }

  /** The file that holds the named template; null when no layer has one. */
  read(name: string): LabelTemplateFile | null {
    for (const layer of this.layers) {
      const available = layer.names();
      for (const extension of EXTENSIONS) {
        const fileName = name + extension;
        // `x.yaml` asked for as `x.yaml` would otherwise be read as the template named `x.yaml`.
        if (labelTemplateName(fileName) !== name || !available.includes(fileName)) continue;
        const text = layer.read(fileName);
        if (text !== null) return { fileName, text };
      }
    }
    return null;
  }
}
