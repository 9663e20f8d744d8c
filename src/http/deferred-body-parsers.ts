// express 5 loads body-parser as it loads (for express.json() and its siblings), which Anvil never calls: each
// operation reads its body through the contract's own readers. The four parsers and their dependencies (iconv-lite,
// qs, raw-body, type-is…) were about a sixth of a start. Before express first loads, body-parser's module is put in
// the module cache as four functions that load the real parsers only if something does call one.
import Module from 'node:module';
import path from 'node:path';

type BodyParser = typeof import('body-parser');
const PARSERS = ['json', 'raw', 'text', 'urlencoded'] as const;

export function deferBodyParsers(): void {
  const resolved = require.resolve('body-parser', { paths: [path.dirname(require.resolve('express'))] });
  if (require.cache[resolved]) return;
  let real: BodyParser | undefined;
  const load = (): BodyParser => {
    if (!real) {
      delete require.cache[resolved];
      real = require(resolved) as BodyParser;
    }
    return real;
  };
  const deferred = new Module(resolved);
  deferred.filename = resolved;
  deferred.loaded = true;
  deferred.exports = Object.fromEntries(
    PARSERS.map((name) => [name, (...args: unknown[]) => (load()[name] as (...a: unknown[]) => unknown)(...args)]),
  );
  require.cache[resolved] = deferred;
}
