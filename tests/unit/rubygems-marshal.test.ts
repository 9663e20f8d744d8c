// The Marshal writer against bytes Ruby 3.1's own Marshal.dump produced for the same values, and the quick
// specification's frame (a Gem::Specification dumped with _dump).
import { inflateSync } from 'node:zlib';
import { dependencyList, quickSpecification, specsList } from '../../src/packages/rubygems/gem-index.ts';
import { compareGemVersions } from '../../src/packages/rubygems/gem-catalog.ts';
import { marshalDump, sym } from '../../src/packages/rubygems/marshal.ts';
import { parseGemSpec } from '../../src/packages/rubygems/gem-spec.ts';

describe('Marshal 4.8', () => {
  it('writes a specs list as Ruby does: Marshal.dump([["a", Gem::Version.new("1.0"), "ruby"]])', () => {
    expect(specsList([{ name: 'a', version: '1.0', platform: 'ruby' }]).toString('hex')).toBe(
      '04085b065b0849220661063a064554553a1147656d3a3a56657273696f6e5b06492208312e30063b005449220972756279063b0054',
    );
  });

  it('writes the dependency API answer as Ruby does, symbols linked after their first use', () => {
    const spec = parseGemSpec('name: a\nversion: !ruby/object:Gem::Version\n  version: "1.0"\n');
    spec.runtimeDependencies = [{ name: 'b', requirement: [['>=', '1']] }];
    expect(dependencyList([spec]).toString('hex')).toBe(
      '04085b067b093a096e616d6549220661063a0645543a0b6e756d626572492208312e30063b06543a0d706c6174666f726d' +
        '49220972756279063b06543a11646570656e64656e636965735b065b0749220662063b06544922093e3d2031063b0654',
    );
  });

  it('writes integers in every width Fixnum takes', () => {
    const hex = (value: number) => marshalDump(value).toString('hex').slice(6);
    expect([0, 1, 122, 123, 255, 256, -1, -123, -124, -256, 70000].map(hex)).toEqual([
      '00',
      '06',
      '7f',
      '017b',
      '01ff',
      '020001',
      'fa',
      '80',
      'ff84',
      'ff00',
      '037011' + '01',
    ]);
    expect(marshalDump(sym('x')).toString('hex')).toBe('04083a0678');
  });

  it('frames a quick specification as a user-defined Gem::Specification holding its own dump', () => {
    const spec = parseGemSpec('name: probe\nversion: !ruby/object:Gem::Version\n  version: 1.2.0\nsummary: Hi\n');
    const dumped = inflateSync(quickSpecification(spec));
    expect(dumped.subarray(0, 3).toString('latin1')).toBe('\u0004\bu');
    expect(dumped.includes(Buffer.from('Gem::Specification'))).toBe(true);
    expect(dumped.includes(Buffer.from('probe'))).toBe(true);
  });
});

describe('Gem::Version order', () => {
  it('orders numbers by value and prereleases before their release', () => {
    const sorted = ['1.10.0', '1.2.0', '1.2.0.pre', '1.2', '0.9'].sort(compareGemVersions);
    expect(sorted).toEqual(['0.9', '1.2.0.pre', '1.2.0', '1.2', '1.10.0']);
  });
});
