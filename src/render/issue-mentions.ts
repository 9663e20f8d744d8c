// Who an issue's text @-mentions: the renderer's own mention rule (never inside code or links), so a mention
// that renders as a link is the mention that notifies (Forgejo: references.FindAllMentionsMarkdown).
import { parseMarkdown } from './markdown.ts';

/** Lower-cased names mentioned in a markdown text. */
export function mentionedNames(text: string): string[] {
  if (!text.includes('@')) return [];
  return [...parseMarkdown(text, { hardBreaks: true, references: true, base: '', wiki: false }).found.mentions];
}
