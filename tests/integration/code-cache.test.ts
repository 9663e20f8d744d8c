// npm start runs dist/anvil.js from the code cache the build wrote (scripts/code-cache.cjs). V8 refuses a cache made
// under other V8 options than its own, silently: the start then compiles everything again, about 120 ms slower.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { npmStartCommand } from '../../scripts/npm-start-command.cjs';

const root = path.resolve(__dirname, '../..');

function acceptedUnder(nodeArgs: string[]): string {
  const check = "process.stdout.write(String(require('./scripts/code-cache.cjs').cacheAccepted('dist/anvil.js')))";
  return execFileSync(process.execPath, [...nodeArgs, '-e', check], { cwd: root, encoding: 'utf8' });
}

describe('the code cache of the bundled server', () => {
  it("is taken by V8 under npm start's node options", () => {
    expect(acceptedUnder(npmStartCommand().nodeArgs)).toBe('true');
  });

  it('is refused under other V8 options (the check above can fail)', () => {
    expect(acceptedUnder(['--max-semi-space-size=8'])).toBe('false');
  });
});
