// The pure branch-name rule says what `git check-ref-format --branch` says, over names that probe each of its rules.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { isValidBranchName } from '../../src/domain/branch-name.ts';

const NAMES = [
  'main',
  'feature/x',
  'a/b/c',
  'v1.0',
  'release-2024',
  'ünïcode',
  'with@sign',
  'a.b',
  'x-',
  '_',
  'HEAD',
  '',
  '-leading',
  '@',
  'a..b',
  'a@{1}',
  '@{-1}',
  'a b',
  'tab\there',
  'a~1',
  'a^',
  'a:b',
  'a?',
  'a*',
  'a[b',
  'back\\slash',
  'del\x7f',
  'nul\x00',
  '/lead',
  'trail/',
  'a//b',
  'dot.',
  '.hidden',
  'a/.hidden',
  'x.lock',
  'a/b.lock/c',
  'a.lock.b',
  'end/.',
  'a/./b',
  'ctl\x01',
  'ok.lockx',
];

function gitSays(name: string): boolean {
  if (name.includes('\x00')) return false; // an argument cannot carry NUL; git refuses it anyway
  // Outside any repository, so that git does not expand `@{-1}` to a branch of ours.
  return spawnSync('git', ['check-ref-format', '--branch', name], { stdio: 'ignore', cwd: os.tmpdir() }).status === 0;
}

describe('isValidBranchName agrees with git check-ref-format --branch', () => {
  it.each(NAMES.map((name) => [JSON.stringify(name), name]))('%s', (_label, name) => {
    expect(isValidBranchName(name)).toBe(gitSays(name));
  });
});
