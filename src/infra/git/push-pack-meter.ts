// The pack part of a push request, metered as it streams: a receive-pack request is pkt-lines (the ref updates,
// then push options when sent), each section ended by a flush, then the pack, which starts with "PACK" (never a
// pkt-line length, which is hex). Only the pack counts against the owner's quota, so a push that only deletes
// refs sends none and always passes. The ref names and the client's capabilities are kept for a refusal.
import type { ByteBudget } from '../storage/blob-store.ts';

/** Command lines are kept up to this length (a ref update is two ids and a ref name). */
const MAX_LINE = 4 * 1024;
const COMMAND = /^[0-9a-f]{40,64} [0-9a-f]{40,64} ([^\0\n]+)/;

export class PushPackMeter {
  /** Whether the client asked for side-band output, where a message can reach its user. */
  sideBand = false;
  /** The refs the push updates. */
  readonly refs: string[] = [];
  private inPack = false;
  /** Still in the first section, the ref updates. */
  private inCommands = true;
  private capabilitiesRead = false;
  private packBytes = 0;
  /** Bytes of the pkt-line being read that have not arrived yet. */
  private lineRemaining = 0;
  private header = '';
  private line: Buffer[] = [];
  private lineBytes = 0;

  constructor(private readonly budget: ByteBudget) {}

  /** Takes the next chunk of the (inflated) body; the pack bytes in it go to the budget, which may refuse them. */
  admit(chunk: Buffer): void | Promise<void> {
    const pack = this.scan(chunk);
    if (pack === 0) return;
    this.packBytes += pack;
    return this.budget.admit(this.packBytes);
  }

  /** Reads pkt-lines up to the pack; answers how many bytes of the chunk belong to the pack. */
  private scan(chunk: Buffer): number {
    let offset = 0;
    while (!this.inPack && offset < chunk.length) {
      if (this.lineRemaining > 0) {
        const take = Math.min(this.lineRemaining, chunk.length - offset);
        this.keepLine(chunk.subarray(offset, offset + take));
        offset += take;
        this.lineRemaining -= take;
        if (this.lineRemaining === 0) this.endLine();
        continue;
      }
      const take = Math.min(4 - this.header.length, chunk.length - offset);
      this.header += chunk.subarray(offset, offset + take).toString('latin1');
      offset += take;
      if (this.header.length < 4) break;
      const header = this.header;
      this.header = '';
      if (header === 'PACK' || !/^[0-9a-f]{4}$/.test(header)) {
        // The pack begins (anything else git itself refuses): its four bytes count too.
        this.inPack = true;
        return chunk.length - offset + 4;
      }
      // 0000 flush, 0001 delimiter, 0002 response end: no payload.
      this.lineRemaining = Math.max(0, parseInt(header, 16) - 4);
      if (this.lineRemaining === 0) this.inCommands = false;
    }
    return this.inPack ? chunk.length - offset : 0;
  }

  private keepLine(bytes: Buffer): void {
    if (!this.inCommands || this.lineBytes >= MAX_LINE) return;
    this.line.push(bytes);
    this.lineBytes += bytes.length;
  }

  private endLine(): void {
    if (!this.inCommands) return;
    const line = Buffer.concat(this.line).toString('latin1');
    this.line = [];
    this.lineBytes = 0;
    const ref = COMMAND.exec(line)?.[1];
    if (ref) this.refs.push(ref);
    if (this.capabilitiesRead) return;
    this.capabilitiesRead = true;
    const capabilities = line.includes('\0')
      ? line
          .slice(line.indexOf('\0') + 1)
          .trim()
          .split(' ')
      : [];
    this.sideBand = capabilities.includes('side-band-64k') || capabilities.includes('side-band');
  }
}
