// Ruby's Marshal format 4.8, written (never read): what RubyGems' indexes need — nil, booleans, small integers,
// UTF-8 strings, symbols, arrays, hashes, plain objects with instance variables, and classes that dump themselves
// (`marshal_dump`: Gem::Version, Gem::Requirement; `_dump`: Gem::Specification). No maintained npm library writes
// these; the format is ruby/marshal.c's, documented in Ruby's doc/marshal.rdoc.

export class RubySymbol {
  constructor(readonly name: string) {}
}

export class RubyHash {
  constructor(readonly entries: ReadonlyArray<readonly [RubyValue, RubyValue]>) {}
}

/** An object of a class with `marshal_dump`: its class name and the value that method answers. */
export class RubyUserMarshal {
  constructor(
    readonly className: string,
    readonly data: RubyValue,
  ) {}
}

/** An object of a class with `_dump`: its class name and the bytes that method answers. */
export class RubyUserDefined {
  constructor(
    readonly className: string,
    readonly bytes: Buffer,
  ) {}
}

/** A plain object: its class name and instance variables (names without the `@`). */
export class RubyObject {
  constructor(
    readonly className: string,
    readonly ivars: ReadonlyArray<readonly [string, RubyValue]>,
  ) {}
}

export type RubyValue =
  | null
  | boolean
  | number
  | string
  | RubySymbol
  | RubyHash
  | RubyUserMarshal
  | RubyUserDefined
  | RubyObject
  | readonly RubyValue[];

export const sym = (name: string) => new RubySymbol(name);

/** The largest integer Marshal writes as a Fixnum (a Bignum past it, which nothing here needs). */
const FIXNUM_LIMIT = 2 ** 30;

class MarshalWriter {
  private readonly chunks: Buffer[] = [Buffer.from([4, 8])];
  private readonly symbols = new Map<string, number>();

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }

  private byte(value: number): void {
    this.chunks.push(Buffer.from([value & 0xff]));
  }

  private long(value: number): void {
    if (!Number.isInteger(value) || Math.abs(value) >= FIXNUM_LIMIT) throw new RangeError(`not a Fixnum: ${value}`);
    if (value === 0) return this.byte(0);
    if (value > 0 && value < 123) return this.byte(value + 5);
    if (value < 0 && value > -124) return this.byte(value - 5);
    const out: number[] = [];
    let rest = value;
    do {
      out.push(rest & 0xff);
      rest >>= 8;
    } while (value > 0 ? rest !== 0 : rest !== -1);
    this.byte(value > 0 ? out.length : -out.length);
    this.chunks.push(Buffer.from(out));
  }

  private raw(bytes: Buffer): void {
    this.long(bytes.length);
    this.chunks.push(bytes);
  }

  private symbol(name: string): void {
    const seen = this.symbols.get(name);
    if (seen !== undefined) {
      this.byte(0x3b); // ';'
      this.long(seen);
      return;
    }
    this.symbols.set(name, this.symbols.size);
    this.byte(0x3a); // ':'
    this.raw(Buffer.from(name, 'utf8'));
  }

  write(value: RubyValue): void {
    if (value === null) return this.byte(0x30); // '0'
    if (value === true) return this.byte(0x54); // 'T'
    if (value === false) return this.byte(0x46); // 'F'
    if (typeof value === 'number') {
      this.byte(0x69); // 'i'
      return this.long(value);
    }
    if (typeof value === 'string') {
      // 'I': the string carries one instance variable, its encoding (E: true, UTF-8).
      this.byte(0x49);
      this.byte(0x22); // '"'
      this.raw(Buffer.from(value, 'utf8'));
      this.long(1);
      this.symbol('E');
      return this.byte(0x54);
    }
    if (value instanceof RubySymbol) return this.symbol(value.name);
    if (Array.isArray(value)) {
      this.byte(0x5b); // '['
      this.long(value.length);
      for (const item of value as RubyValue[]) this.write(item);
      return;
    }
    this.writeObject(value as RubyHash | RubyUserMarshal | RubyUserDefined | RubyObject);
  }

  private writeObject(value: RubyHash | RubyUserMarshal | RubyUserDefined | RubyObject): void {
    if (value instanceof RubyHash) {
      this.byte(0x7b); // '{'
      this.long(value.entries.length);
      for (const [key, item] of value.entries) {
        this.write(key);
        this.write(item);
      }
    } else if (value instanceof RubyUserMarshal) {
      this.byte(0x55); // 'U'
      this.symbol(value.className);
      this.write(value.data);
    } else if (value instanceof RubyUserDefined) {
      this.byte(0x75); // 'u'
      this.symbol(value.className);
      this.raw(value.bytes);
    } else {
      this.byte(0x6f); // 'o'
      this.symbol(value.className);
      this.long(value.ivars.length);
      for (const [name, item] of value.ivars) {
        this.symbol(`@${name}`);
        this.write(item);
      }
    }
  }
}

/** `Marshal.dump(value)`. */
export function marshalDump(value: RubyValue): Buffer {
  const writer = new MarshalWriter();
  writer.write(value);
  return writer.bytes();
}
