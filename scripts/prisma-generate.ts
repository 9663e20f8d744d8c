// Generates one Prisma client per provider from the single schema (generated/prisma/<provider>).
// Skipped when the schema has not changed since the last run, so a running server's files are left alone.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const PROVIDERS = ['sqlite', 'postgresql'] as const;
const root = path.resolve(__dirname, '..');
const outDir = path.join(root, 'generated', 'prisma');

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
  const stamp = createHash('sha256').update(schemaText).update(prismaVersion).digest('hex');
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
  }
  fs.writeFileSync(stampFile, stamp);
}

if (require.main === module) main();
