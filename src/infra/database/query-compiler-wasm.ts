// Prisma's query compiler (WebAssembly), compiled once per process. The generated client would import it as a
// 2 MiB base64 string in a CommonJS module, which the module cache keeps, with its source, for the life of the
// process (about 7 MiB of RSS). Reading that file's text and decoding it here lets both go once compiled.
// scripts/prisma-generate.ts points the generated clients here.
import fs from 'node:fs';
import type { DatabaseTarget } from './target.ts';

type Provider = DatabaseTarget['provider'];
/** A compiled WebAssembly module (its type lives in the DOM library, which this project does not include). */
type WasmModule = object;
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> };

const BASE64_MODULES: Readonly<Record<Provider, string>> = {
  sqlite: '@prisma/client/runtime/query_compiler_small_bg.sqlite.wasm-base64.js',
  postgresql: '@prisma/client/runtime/query_compiler_small_bg.postgresql.wasm-base64.js',
};

const compiled = new Map<Provider, Promise<WasmModule>>();

/** The provider's query compiler; the first call starts compiling it (off the main thread). */
export function queryCompilerWasm(provider: Provider): Promise<WasmModule> {
  let module = compiled.get(provider);
  if (!module) {
    module = WebAssembly.compile(wasmBytes(BASE64_MODULES[provider]));
    compiled.set(provider, module);
  }
  return module;
}

function wasmBytes(specifier: string): Buffer {
  const text = fs.readFileSync(require.resolve(specifier), 'latin1');
  const base64 = /^const wasm = "([A-Za-z0-9+/=_-]+)";?$/m.exec(text)?.[1];
  // A Prisma release that lays the module out otherwise still works, at the old memory cost.
  return Buffer.from(base64 ?? (require(specifier) as { wasm: string }).wasm, 'base64');
}
