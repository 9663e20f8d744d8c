import { PushPackMeter } from '../../src/infra/git/push-pack-meter.ts';

const pkt = (text: string) => (text.length + 4).toString(16).padStart(4, '0') + text;
const OLD = '0'.repeat(40);
const NEW = 'a'.repeat(40);

/** Feeds the body in pieces of `size` bytes; answers what the budget was asked to admit, and the meter. */
function meter(body: Buffer, size: number) {
  const admitted: number[] = [];
  const scanner = new PushPackMeter({ admit: (total) => void admitted.push(total) });
  for (let offset = 0; offset < body.length; offset += size) scanner.admit(body.subarray(offset, offset + size));
  return { admitted, scanner };
}

describe('PushPackMeter', () => {
  const commands =
    pkt(`${OLD} ${NEW} refs/heads/main\0report-status side-band-64k agent=git/2\n`) +
    pkt(`${OLD} ${NEW} refs/tags/v1\n`) +
    '0000';
  const pack = Buffer.concat([Buffer.from('PACK'), Buffer.alloc(1000, 7)]);

  it.each([1, 3, 7, 64, 100_000])('counts only the pack, reads refs and side-band, in pieces of %i bytes', (size) => {
    const { admitted, scanner } = meter(Buffer.concat([Buffer.from(commands, 'latin1'), pack]), size);
    expect(admitted.at(-1)).toBe(pack.length);
    expect(scanner.refs).toEqual(['refs/heads/main', 'refs/tags/v1']);
    expect(scanner.sideBand).toBe(true);
  });

  it('finds the pack after a section of push options', () => {
    const body = Buffer.concat([Buffer.from(commands + pkt('ci.skip\n') + '0000', 'latin1'), pack]);
    expect(meter(body, 5).admitted.at(-1)).toBe(pack.length);
  });

  it('admits nothing for a push that only deletes refs', () => {
    const body = Buffer.from(pkt(`${NEW} ${OLD} refs/heads/gone\0report-status\n`) + '0000', 'latin1');
    const { admitted, scanner } = meter(body, 4);
    expect(admitted).toEqual([]);
    expect(scanner.sideBand).toBe(false);
  });
});
