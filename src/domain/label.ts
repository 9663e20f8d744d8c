// Label colours (Forgejo: modules/label/label.go): stored as lower-case `#rrggbb`, shown without the `#`.

const COLOR_PATTERN = /^#?(?:[0-9a-f]{6}|[0-9a-f]{3})$/;

/** The colour as `#rrggbb`, or null when it cannot be read as a 3- or 6-digit hex code. */
export function normaliseLabelColor(input: string): string | null {
  const color = input.trim().toLowerCase();
  if (!COLOR_PATTERN.test(color)) return null;
  const digits = color.replace(/^#/, '');
  return '#' + (digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits);
}

export const LABEL_SORTS = ['reversealphabetically', 'leastissues', 'mostissues'] as const;
export type LabelSort = (typeof LABEL_SORTS)[number] | 'alphabetically';

export function parseLabelSort(value: unknown): LabelSort {
  return (LABEL_SORTS as readonly unknown[]).includes(value) ? (value as LabelSort) : 'alphabetically';
}
