// Prisma's query compiler (WebAssembly), compiled once per process. The generated client would import it as a
// 2 MiB base64 string in a CommonJS module, which the module cache keeps, with its source, for the life of the
// process (about 7 MiB of RSS). The build decodes it once into a binary file under dist/ (reading and decoding the
// text cost a start some 40 ms); without that file (a run from the sources, another Prisma release) it is decoded
// here, and text and string go once compiled. scripts/prisma-generate.ts points the generated clients here.
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../lib/project-root.ts';
import type { DatabaseTarget } from './target.ts';

type Provider = DatabaseTarget['provider'];
/** A compiled WebAssembly module (its type lives in the DOM library, which this project does not include). */
type WasmModule = object;
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> };

export const QUERY_COMPILER_PROVIDERS: readonly Provider[] = ['sqlite', 'postgresql'];

const BASE64_MODULES: Readonly<Record<Provider, string>> = {
  sqlite: '@prisma/client/runtime/query_compiler_small_bg.sqlite.wasm-base64.js',
  postgresql: '@prisma/client/runtime/query_compiler_small_bg.postgresql.wasm-base64.js',
};

const compiled = new Map<Provider, Promise<WasmModule>>();

/** The provider's query compiler; the first call starts compiling it (off the main thread). */
export function queryCompilerWasm(provider: Provider): Promise<WasmModule> {
  let module = compiled.get(provider);
  if (!module) {
    module = WebAssembly.compile(decodedFile(provider) ?? decodeQueryCompiler(provider));
    compiled.set(provider, module);
  }
  return module;
}

/** The decoded compiler's file under a build directory: named by Prisma's release, so another one is not taken. */
export function queryCompilerFile(buildDir: string, provider: Provider): string {
  const { version } = require('@prisma/client/package.json') as { version: string };
  return path.join(buildDir, 'query-compiler', `${version}-${provider}.wasm`);
}

function decodedFile(provider: Provider): Buffer | null {
  try {
    return fs.readFileSync(queryCompilerFile(path.join(PROJECT_ROOT, 'dist'), provider));
  } catch {
    return null;
  }
}

/** The compiler's bytes, decoded from the base64 module Prisma's client ships. */
export function decodeQueryCompiler(provider: Provider): Buffer {
  const specifier = BASE64_MODULES[provider];
  const text = fs.readFileSync(require.resolve(specifier), 'latin1');
  const base64 = /^const wasm = "([A-Za-z0-9+/=_-]+)";?$/m.exec(text)?.[1];
  // A Prisma release that lays the module out otherwise still works, at the old memory cost.
  return Buffer.from(base64 ?? (require(specifier) as { wasm: string }).wasm, 'base64');
}
