// Decodes base64 text that arrives in pieces of any length: the characters past the last whole group of four wait
// for the next piece, so no group is decoded split.

const WHITE_SPACE = /[\s]+/g;

export class Base64Decoder {
  private pending = '';

  /** The bytes of the whole groups so far. */
  write(text: string): Buffer {
    const joined = this.pending + text.replace(WHITE_SPACE, '');
    const whole = joined.length - (joined.length % 4);
    this.pending = joined.slice(whole);
    return Buffer.from(joined.slice(0, whole), 'base64');
  }

  /** The bytes of what is left (a last group without its padding). */
  end(): Buffer {
    const rest = this.pending;
    this.pending = '';
    return Buffer.from(rest, 'base64');
  }
}
