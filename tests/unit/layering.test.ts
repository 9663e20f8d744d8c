// Which folder of src/ may import which (README, "How it is built"), read from the import lines of every file,
// so a wrong direction fails here instead of growing quietly.
import fs from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(__dirname, '../../src');

interface ImportEdge {
  /** Importing file, relative to src/ (e.g. services/user.service.ts). */
  from: string;
  /** Imported module, relative to src/ (e.g. convert/user.ts); outside src/ it starts with `../`. */
  to: string;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Static imports and re-exports (`from '…'`), side-effect imports, `import('…')` and `require('…')`. */
const SPECIFIER = /(?:\bfrom\s*|^\s*import\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/gm;

function importsOf(file: string): ImportEdge[] {
  const text = fs.readFileSync(file, 'utf8');
  const from = path.relative(SRC, file).split(path.sep).join('/');
  const edges: ImportEdge[] = [];
  for (const match of text.matchAll(SPECIFIER)) {
    const specifier = match[1];
    if (!specifier.startsWith('.')) continue; // packages and node: builtins
    const to = path.relative(SRC, path.resolve(path.dirname(file), specifier)).split(path.sep).join('/');
    edges.push({ from, to });
  }
  return edges;
}

const files = sourceFiles(SRC);
const edges = files.flatMap(importsOf);

const within = (folder: string) => (modulePath: string) => modulePath === folder || modulePath.startsWith(`${folder}/`);
const inServices = within('services');
const inDb = within('db');
const inDomain = within('domain');
const inConvert = within('convert');
const inWebhook = within('webhook');
const inCronInternals = within('services/cron');
const HTTP_LAYERS = ['api', 'http'].map(within);

function offending(fromFolder: (p: string) => boolean, forbidden: Array<(p: string) => boolean>): string[] {
  return edges.filter((edge) => fromFolder(edge.from) && forbidden.some((test) => test(edge.to))).map((edge) => `${edge.from} → ${edge.to}`);
}

describe('layering of src/', () => {
  it('reads the imports of every source file', () => {
    // Guards the reader itself: a broken pattern would make every rule below pass vacuously.
    expect(files.length).toBeGreaterThan(100);
    expect(edges).toContainEqual({ from: 'services/index.ts', to: 'services/user.service.ts' });
    expect(edges).toContainEqual({ from: 'convert/repository.ts', to: 'domain/access.ts' });
  });

  it('services import neither converters nor the HTTP layers (src/convert, src/api, src/http)', () => {
    expect(offending(inServices, [inConvert, ...HTTP_LAYERS])).toEqual([]);
  });

  it('converters are called by the HTTP layers, and by bootstrap.ts, which hands services the webhook payload renderer', () => {
    const callers = edges.filter((edge) => inConvert(edge.to) && !inConvert(edge.from) && !within('api')(edge.from) && edge.from !== 'bootstrap.ts');
    expect(callers.map((edge) => `${edge.from} → ${edge.to}`)).toEqual([]);
    expect(edges).toContainEqual({ from: 'bootstrap.ts', to: 'convert/hook-payload.ts' });
  });

  it('webhook wire code (src/webhook/: event and payload shapes, requests per hook type, the client) imports neither services, converters nor the HTTP layers', () => {
    expect(offending(inWebhook, [inServices, inConvert, ...HTTP_LAYERS])).toEqual([]);
  });

  it('db imports neither services, converters nor the HTTP layers', () => {
    expect(offending(inDb, [inServices, inConvert, ...HTTP_LAYERS])).toEqual([]);
  });

  it('converters take row and domain types: they import neither services nor the HTTP layers', () => {
    expect(offending(inConvert, [inServices, ...HTTP_LAYERS])).toEqual([]);
  });

  it('domain imports nothing of the project but domain and lib', () => {
    expect(offending(inDomain, [(to) => !inDomain(to) && !within('lib')(to)])).toEqual([]);
  });

  it('the cron registry, schedules and scheduler (services/cron/) are reached only through CronService', () => {
    const outside = edges.filter((edge) => inCronInternals(edge.to) && !inCronInternals(edge.from) && edge.from !== 'services/cron.service.ts');
    expect(outside.map((edge) => `${edge.from} → ${edge.to}`)).toEqual([]);
  });

  it('the job queue engines (database, Redis) are chosen in one place: services see only the JobQueue interface', () => {
    const engines = ['queue/database-job-queue.ts', 'queue/redis-job-queue.ts'];
    const outside = edges.filter((edge) => engines.includes(edge.to) && edge.from !== 'queue/create-job-queue.ts');
    expect(outside.map((edge) => `${edge.from} → ${edge.to}`)).toEqual([]);
    expect(offending(within('queue'), [inServices, inConvert, ...HTTP_LAYERS])).toEqual([]);
  });

  it('services get repositories injected: they construct none and reach no Prisma client or transaction directly', () => {
    const problems = files
      .filter((file) => inServices(path.relative(SRC, file).split(path.sep).join('/')))
      .flatMap((file) => {
        const text = fs.readFileSync(file, 'utf8');
        const name = path.relative(SRC, file);
        return [
          ...[...text.matchAll(/\bnew\s+(\w+Repository)\s*\(/g)].map((m) => `${name}: new ${m[1]}(…)`),
          ...(/\bdb\.prisma\b/.test(text) ? [`${name}: db.prisma`] : []),
          ...(/\$transaction\s*\(/.test(text) ? [`${name}: $transaction(…)`] : []),
          ...(/from '\.\.\/db\/errors\.ts'/.test(text) ? [`${name}: Prisma error codes (db/errors.ts)`] : []),
        ];
      });
    expect(problems).toEqual([]);
  });
});
