// Where express-openapi-validator 5.6 does work Anvil never uses, on every request or at start, we route around it
// inside its own modules; the validation itself is untouched. Measured figures are in the README ("Measured").
import fs from 'node:fs';
import { installContractRouteLookup } from './contract-route-lookup.ts';
import { validatorModule } from './validator-internals.ts';

/**
 * The library compiles the whole OpenAPI 3 meta-schema at start even with `validateApiSpec: false`, when nothing
 * will use it (half a second of CPU). The validator now compiles it on its first use, which never comes.
 */
function compileMetaSchemaOnUse(): void {
  const schemaValidator = validatorModule('framework/openapi.schema.validator.js');
  if (schemaValidator.__anvilPatched) return;
  type Validator = { validate(doc: unknown): { errors: unknown[] } };
  const Eager = schemaValidator.OpenAPISchemaValidator as new (options: unknown) => Validator;
  schemaValidator.OpenAPISchemaValidator = class CompiledOnUse implements Validator {
    private compiled: Validator | undefined;
    constructor(private readonly options: unknown) {}
    validate(doc: unknown) {
      this.compiled ??= new Eager(this.options);
      return this.compiled.validate(doc);
    }
  };
  schemaValidator.__anvilPatched = true;
}

/** Reads a local JSON pointer (`#/components/schemas/User`) in a document. */
function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * At start the schema preprocessor resolves each `$ref` of the bundled contract by compiling the schema it names
 * with ajv and keeping only the source (schema.preprocessor.js resolveSchema); compiling every response schema that
 * way costs about 0.4 s and the compiled code is thrown away. Every ref of the bundled contract is a local pointer,
 * so reading the pointer gives the same object without compiling anything.
 */
function resolveRefsWithoutCompiling(): void {
  const preprocessor = validatorModule('middlewares/parsers/schema.preprocessor.js');
  if (preprocessor.__anvilPatched) return;
  const prototype = (preprocessor.SchemaPreprocessor as { prototype: Record<string, unknown> }).prototype;
  const original = prototype.resolveSchema as (this: unknown, schema: unknown) => unknown;
  prototype.resolveSchema = function resolveSchema(this: { apiDoc: unknown; resolvedSchemaCache: Map<string, unknown> }, schema: unknown) {
    const ref = (schema as { $ref?: unknown } | null | undefined)?.$ref;
    if (typeof ref !== 'string') return original.call(this, schema);
    if (this.resolvedSchemaCache.has(ref)) return this.resolvedSchemaCache.get(ref);
    const resolved = resolvePointer(this.apiDoc, ref);
    if (resolved === undefined) return original.call(this, schema);
    this.resolvedSchemaCache.set(ref, resolved);
    return resolved;
  };
  preprocessor.__anvilPatched = true;
}

/** Whether every `$ref` in a document is a local pointer; walks iteratively, the contract is deep. */
function onlyLocalRefs(document: unknown): boolean {
  const pending: unknown[] = [document];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== 'object') continue;
    const ref = (node as { $ref?: unknown }).$ref;
    if (ref !== undefined && !(typeof ref === 'string' && ref.startsWith('#/'))) return false;
    for (const child of Object.values(node)) pending.push(child);
  }
  return true;
}

/**
 * At start the library bundles the contract with json-schema-ref-parser (about 0.1 s) to pull in the files its refs
 * name. A contract whose refs are all local pointers comes out of bundling unchanged, so it is read as it is.
 */
function readSelfContainedContractAsIs(): void {
  const framework = validatorModule('framework/index.js');
  if (framework.__anvilPatched) return;
  type LoadSpec = (this: unknown, spec: unknown, refParser?: { mode?: string }) => Promise<unknown>;
  const prototype = (framework.OpenAPIFramework as { prototype: { loadSpec: LoadSpec } }).prototype;
  const original = prototype.loadSpec;
  prototype.loadSpec = function loadSpec(spec, refParser = { mode: 'bundle' }) {
    if (typeof spec === 'string' && spec.endsWith('.json') && refParser.mode === 'bundle') {
      const document: unknown = JSON.parse(fs.readFileSync(spec, 'utf8'));
      if (onlyLocalRefs(document)) return Promise.resolve(document);
    }
    return original.call(this, spec, refParser);
  };
  framework.__anvilPatched = true;
}

export function patchValidatorCosts(): void {
  installContractRouteLookup();
  readSelfContainedContractAsIs();
  compileMetaSchemaOnUse();
  resolveRefsWithoutCompiling();
}
