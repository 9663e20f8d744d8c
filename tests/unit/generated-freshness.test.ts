import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

function check(dir: string): number {
  try {
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/generate.ts', '--check', '--dir', dir], {
      cwd: root,
      stdio: 'pipe',
    });
    return 0;
  } catch (error) {
    return (error as { status: number }).status;
  }
}

describe('generated files', () => {
  let copy: string;
  beforeEach(() => {
    copy = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-generated-'));
    const generated = path.join(root, 'generated');
    for (const entry of fs.readdirSync(generated, { withFileTypes: true })) {
      if (entry.isFile()) fs.copyFileSync(path.join(generated, entry.name), path.join(copy, entry.name));
    }
  });
  afterEach(() => fs.rmSync(copy, { recursive: true, force: true }));

  it('match what spec/ yields', () => {
    expect(check(copy)).toBe(0);
  });

  it('fail the check when edited by hand', () => {
    fs.appendFileSync(path.join(copy, 'operations.ts'), '\n// edited by hand\n');
    expect(check(copy)).toBe(1);
  });
});
