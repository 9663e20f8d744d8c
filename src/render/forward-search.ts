// Where a string next occurs in a text, for a parser that asks at positions that mostly move forward: the last
// answer is reused while it still holds, so asking at every position of a text costs one pass over it, not one
// pass per position (a `[[` at each of n positions must not scan the rest of the line n times).
export class ForwardSearch {
  private text = '';
  private from = -1;
  private found = -1;

  constructor(private readonly needle: string) {}

  /** Index of the needle at or after `start` in `text`, or -1. */
  next(text: string, start: number): number {
    const reusable = text === this.text && this.from <= start && (this.found === -1 || this.found >= start);
    if (!reusable) {
      this.text = text;
      this.from = start;
      this.found = text.indexOf(this.needle, start);
    }
    return this.found;
  }
}
