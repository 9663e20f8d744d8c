import fs from 'node:fs';
import path from 'node:path';
import { SCHEMA } from '../../src/config/settings.ts';
import { STORAGE_KEYS } from '../../src/config/storage.ts';
import { parseIniText } from '../../src/config/ini-file.ts';

// The example keeps every key commented out; uncommented, it must name every key Anvil reads and parse.
const example = fs.readFileSync(path.join(__dirname, '../../contrib/app.example.ini'), 'utf8');
const uncommented = example.replace(/^; ([A-Za-z0-9_.]+ =)/gm, '$1');

describe('contrib/app.example.ini', () => {
  const sections = parseIniText(uncommented);

  it.each(Object.entries(SCHEMA).map(([section, keys]) => [section, Object.keys(keys)] as const))(
    'documents every key of [%s]',
    (section, keys) => {
      const documented = sections.get(section);
      expect(documented).toBeDefined();
      expect(keys.filter((key) => !documented!.has(key))).toEqual([]);
    },
  );

  it('documents the storage keys', () => {
    expect(Object.keys(STORAGE_KEYS).filter((key) => !sections.get('storage')?.has(key))).toEqual([]);
  });

  it('gives each key a meaning', () => {
    const bare = uncommented.split('\n').filter((line) => /^[A-Za-z0-9_.]+ =/.test(line) && !/ ; \S/.test(line));
    expect(bare).toEqual([]);
  });
});
