// What Anvil reads from a bare repository's files (branches, HEAD, object size) says what git itself says, over
// repositories in the states pushes, packing and deletion leave them in.
import fs from 'node:fs';
import path from 'node:path';
import { repositorySize } from '../../src/infra/git/object-size.ts';
import { readBranches, readHeadBranch } from '../../src/infra/git/ref-files.ts';
import { git, gitOk, tempDir } from '../helpers/git-client.ts';

async function gitBranches(bare: string): Promise<string[]> {
  return (await gitOk(['--git-dir', bare, 'for-each-ref', '--format=%(refname:strip=2)', 'refs/heads/']))
    .split('\n')
    .filter(Boolean);
}

async function gitHead(bare: string): Promise<string | null> {
  const result = await git(['--git-dir', bare, 'symbolic-ref', '--short', 'HEAD']);
  return result.code === 0 ? result.stdout.trim() : null;
}

async function gitSize(bare: string): Promise<number> {
  const output = await gitOk(['--git-dir', bare, 'count-objects', '-v']);
  const kib = (key: string) => Number(new RegExp(`^${key}: (\\d+)$`, 'm').exec(output)?.[1] ?? 0);
  return (kib('size') + kib('size-pack')) * 1024;
}

async function expectAgreement(bare: string): Promise<void> {
  expect(await readBranches(bare)).toEqual(await gitBranches(bare));
  expect(await readHeadBranch(bare)).toBe(await gitHead(bare));
  expect(await repositorySize(bare)).toBe(await gitSize(bare));
}

async function commit(work: string, file: string, content: string): Promise<void> {
  fs.writeFileSync(path.join(work, file), content);
  await gitOk(['add', file], work);
  await gitOk(['commit', '-q', '-m', `write ${file}`], work);
}

describe('ref and object files read without git', () => {
  let bare: string;
  let work: string;

  beforeAll(async () => {
    const dir = tempDir();
    bare = path.join(dir, 'repo.git');
    work = path.join(dir, 'work');
    await gitOk(['init', '--bare', '-q', '--initial-branch=trunk', bare]);
    await gitOk(['clone', '-q', bare, work]);
  });

  it('an empty repository: no branch, HEAD names the initial branch, no objects', async () => {
    await expectAgreement(bare);
    expect(await readHeadBranch(bare)).toBe('trunk');
  });

  it('loose objects and loose refs, nested branch names', async () => {
    await gitOk(['checkout', '-q', '-b', 'trunk'], work);
    await commit(work, 'a.txt', 'a'.repeat(5000));
    await gitOk(['branch', 'feature/deep/x'], work);
    await gitOk(['branch', 'Zeta'], work);
    await gitOk(['push', '-q', 'origin', 'trunk', 'feature/deep/x', 'Zeta'], work);
    await expectAgreement(bare);
  });

  it('packed objects and packed refs after gc, with loose refs beside them', async () => {
    await gitOk(['--git-dir', bare, 'gc', '--quiet']);
    await commit(work, 'b.txt', 'b'.repeat(20000));
    await gitOk(['push', '-q', 'origin', 'trunk:after-gc'], work);
    await expectAgreement(bare);
  });

  it('a branch deleted after packing, and HEAD moved to another branch', async () => {
    await gitOk(['push', '-q', 'origin', ':Zeta'], work);
    await gitOk(['--git-dir', bare, 'symbolic-ref', 'HEAD', 'refs/heads/feature/deep/x']);
    await expectAgreement(bare);
  });

  it('a detached HEAD names no branch', async () => {
    const sha = (await gitOk(['--git-dir', bare, 'rev-parse', 'trunk'])).trim();
    fs.writeFileSync(path.join(bare, 'HEAD'), `${sha}\n`);
    await expectAgreement(bare);
    expect(await readHeadBranch(bare)).toBeNull();
  });
});
