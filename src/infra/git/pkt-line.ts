// git's pkt-line framing: four hex digits of length (themselves included), then the payload; "0000" flushes.
export function pktLine(text: string): string {
  return (text.length + 4).toString(16).padStart(4, '0') + text;
}

export const FLUSH_PKT = '0000';
