// Terminal output (.sh-session files, the output of .cast recordings) as preformatted text, with ANSI colour and
// bold codes turned into classes and every other escape sequence dropped (Forgejo: modules/markup/console).
import { escapeHtml } from './html.ts';

// CSI sequences (ESC [ … final byte), OSC sequences (ESC ] … BEL or ESC \) and lone two-byte escapes.
const ESCAPE = /\u001b(?:\[([0-9;?]*)([@-~])|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])/g;

interface Style {
  fg: number | null;
  bg: number | null;
  bold: boolean;
}

function applySgr(style: Style, params: string): Style {
  const codes = params === '' ? [0] : params.split(';').map(Number);
  const next = { ...style };
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i];
    if (code === 0) Object.assign(next, { fg: null, bg: null, bold: false });
    else if (code === 1) next.bold = true;
    else if (code === 22) next.bold = false;
    else if ((code >= 30 && code <= 37) || (code >= 90 && code <= 97)) next.fg = code;
    else if (code === 39) next.fg = null;
    else if ((code >= 40 && code <= 47) || (code >= 100 && code <= 107)) next.bg = code;
    else if (code === 49) next.bg = null;
    else if (code === 38 || code === 48) i += codes[i + 1] === 5 ? 2 : codes[i + 1] === 2 ? 4 : 0; // 256/true colour: not kept
  }
  return next;
}

function classesOf(style: Style): string[] {
  const classes: string[] = [];
  if (style.fg !== null) classes.push(`term-fg${style.fg}`);
  if (style.bg !== null) classes.push(`term-bg${style.bg}`);
  if (style.bold) classes.push('term-bold');
  return classes;
}

export function renderConsole(text: string): string {
  let style: Style = { fg: null, bg: null, bold: false };
  let html = '';
  let at = 0;
  const emit = (chunk: string) => {
    if (!chunk) return;
    const classes = classesOf(style);
    const escaped = escapeHtml(chunk.replace(/\r\n/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ''));
    html += classes.length ? `<span class="${classes.join(' ')}">${escaped}</span>` : escaped;
  };
  for (const match of text.matchAll(ESCAPE)) {
    emit(text.slice(at, match.index));
    if (match[2] === 'm') style = applySgr(style, match[1]);
    at = match.index + match[0].length;
  }
  emit(text.slice(at));
  return `<pre class="console">${html}</pre>`;
}

/** The terminal output of an asciicast (v2: a JSON header line, then `[time, "o", data]` events). */
export function asciicastOutput(text: string): string | null {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines.length === 0) return null;
  try {
    const header = JSON.parse(lines[0]);
    if (typeof header !== 'object' || header === null || header.version !== 2) return null;
    let output = '';
    for (const line of lines.slice(1)) {
      const event = JSON.parse(line);
      if (Array.isArray(event) && event[1] === 'o' && typeof event[2] === 'string') output += event[2];
    }
    return output;
  } catch {
    return null;
  }
}
