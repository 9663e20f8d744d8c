// Generates one Prisma client per provider from the single schema (generated/prisma/<provider>).
// Skipped when the schema has not changed since the last run, so a running server's files are left alone.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const PROVIDERS = ['sqlite', 'postgresql'] as const;
const root = path.resolve(__dirname, '..');
const outDir = path.join(root, 'generated', 'prisma');
/** Changes when what is done to the generated clients after `prisma generate` changes, so they are made again. */
const POST_PROCESSING = 'query-compiler-from-file';

export function schemaFor(provider: string, schemaText: string): string {
  return schemaText
    .replace(/provider\s*=\s*"sqlite"/, `provider = "${provider}"`)
    .replace(/output\s*=\s*"[^"]*"/, `output = "./${provider}"`);
}

function main(): void {
  const schemaText = fs.readFileSync(path.join(root, 'prisma', 'schema.prisma'), 'utf8');
  const prismaVersion = JSON.parse(
    fs.readFileSync(path.join(root, 'node_modules', 'prisma', 'package.json'), 'utf8'),
  ).version;
  const stamp = createHash('sha256').update(schemaText).update(prismaVersion).update(POST_PROCESSING).digest('hex');
  const stampFile = path.join(outDir, '.stamp');
  const fresh = PROVIDERS.every((p) => fs.existsSync(path.join(outDir, p, 'client.ts')));
  if (
    fresh &&
    fs.existsSync(stampFile) &&
    fs.readFileSync(stampFile, 'utf8') === stamp &&
    !process.argv.includes('--force')
  )
    return;

  fs.mkdirSync(outDir, { recursive: true });
  for (const provider of PROVIDERS) {
    const schemaFile = path.join(outDir, `schema.${provider}.prisma`);
    fs.writeFileSync(schemaFile, schemaFor(provider, schemaText));
    execFileSync(process.execPath, [require.resolve('prisma/build/index.js'), 'generate', '--schema', schemaFile], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      // Generation never calls the schema engine, but the CLI insists on finding one.
      env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: '/bin/false', PRISMA_HIDE_UPDATE_MESSAGE: '1' },
    });
    loadQueryCompilerFromFile(provider);
  }
  fs.writeFileSync(stampFile, stamp);
}

/**
 * The client takes its query compiler from src/infra/database/query-compiler-wasm.ts instead of importing the
 * base64 module, which would stay in memory for the life of the process.
 */
function loadQueryCompilerFromFile(provider: string): void {
  const file = path.join(outDir, provider, 'internal', 'class.ts');
  const text = fs.readFileSync(file, 'utf8');
  const imported = new RegExp(
    String.raw`const \{ wasm \} = await import\("@prisma/client/runtime/query_compiler_small_bg\.${provider}\.wasm-base64\.js"\)\s*return await decodeBase64AsWasm\(wasm\)`,
  );
  if (!imported.test(text)) throw new Error(`${file}: Prisma no longer loads its query compiler as expected`);
  const loader = '../../../../src/infra/database/query-compiler-wasm.ts';
  fs.writeFileSync(
    file,
    text.replace(imported, `return await (await import("${loader}")).queryCompilerWasm("${provider}")`),
  );
}

if (require.main === module) main();
