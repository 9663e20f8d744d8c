// spec/*.swagger.json ─▶ generated/openapi.json (OpenAPI 3) ─▶ generated/api.d.ts ─▶ generated/operations.ts, and the
// contract's validators compiled once (generated/request-*.ts, generated/response-validators.ts).
// `--check` compares instead of writing and exits 1 when a generated file differs from what the spec yields.
import fs from 'node:fs';
import path from 'node:path';
import { routesModule } from './contract-routes.ts';
import { validatorModules } from './contract-validators.ts';

const root = path.resolve(__dirname, '..');
// `--dir <path>` checks or writes another copy (the freshness test uses it).
const dirFlag = process.argv.indexOf('--dir');
const generatedDir = dirFlag > 0 ? path.resolve(process.argv[dirFlag + 1]) : path.join(root, 'generated');

/** The Swagger documents and the URL prefix each one's paths are served under. */
const SOURCES = [
  { file: 'spec/forgejo-v1.swagger.json', prefix: '/api/v1' },
  { file: 'spec/anvil-root.swagger.json', prefix: '' },
];

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

type Json = Record<string, any>;

async function convert(swagger: Json): Promise<Json> {
  const converter = require('swagger2openapi');
  const { openapi } = await converter.convertObj(swagger, { patch: true, warnOnly: false, resolveInternal: false });
  return openapi;
}

/** Merges converted documents into one served from `/`, prefixing each document's paths. */
function merge(documents: { doc: Json; prefix: string }[]): Json {
  const merged: Json = {
    openapi: '3.0.0',
    info: documents[0].doc.info,
    servers: [{ url: '/' }],
    security: documents[0].doc.security,
    paths: {},
    components: {},
  };
  for (const { doc, prefix } of documents) {
    for (const [p, item] of Object.entries<Json>(doc.paths)) merged.paths[prefix + p] = item;
    for (const [section, entries] of Object.entries<Json>(doc.components ?? {})) {
      merged.components[section] ??= {};
      for (const [name, value] of Object.entries(entries)) {
        const existing = merged.components[section][name];
        // Shared names must mean the same thing in every document, or a $ref would silently change meaning.
        if (
          existing &&
          section !== 'responses' &&
          section !== 'securitySchemes' &&
          JSON.stringify(existing) !== JSON.stringify(value)
        ) {
          throw new Error(`components.${section}.${name} differs between spec documents`);
        }
        merged.components[section][name] ??= value;
      }
    }
  }
  for (const item of Object.values<Json>(merged.paths)) {
    for (const method of METHODS) {
      for (const param of item[method]?.parameters ?? []) {
        // Clients send unencoded , : / ? in query values; the validator would refuse them otherwise.
        if (param.in === 'query') param.allowReserved = true;
      }
    }
  }
  return merged;
}

interface OperationRow {
  operationId: string;
  method: string;
  path: string;
  scopes: string[];
  rawBody: boolean;
  body: BodyKind;
  integerPathParams: string[];
  integerQueryParams: string[];
}

type BodyKind = 'none' | 'json' | 'text' | 'stream';

/** How the server reads an operation's body: parsed JSON or text, handed over unread, or not at all. */
function bodyKind(openapi: Json, op: Json): BodyKind {
  if (op['x-raw-body'] === true) return 'stream';
  let requestBody = op.requestBody;
  if (requestBody?.$ref) requestBody = openapi.components.requestBodies[requestBody.$ref.split('/').pop()];
  const types = Object.keys(requestBody?.content ?? {});
  if (types.length === 0) return 'none';
  if (types.some((type) => /json/.test(type))) return 'json';
  if (types.includes('text/plain')) return 'text';
  return 'stream';
}

/** Names of the parameters in `where` that the contract types as integers (or arrays of integers). */
function integerParams(openapi: Json, params: Json[], where: 'path' | 'query'): string[] {
  return params
    .map((param) => (param.$ref ? openapi.components.parameters[param.$ref.split('/').pop()] : param))
    .filter(
      (param) => param.in === where && (param.schema?.type === 'integer' || param.schema?.items?.type === 'integer'),
    )
    .map((param) => param.name);
}

function operationRows(openapi: Json): OperationRow[] {
  const rows: OperationRow[] = [];
  for (const [p, item] of Object.entries<Json>(openapi.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      rows.push({
        operationId: op.operationId,
        method,
        path: p,
        scopes: op['x-token-scopes'] ?? [],
        rawBody: op['x-raw-body'] === true,
        body: bodyKind(openapi, op),
        integerPathParams: integerParams(openapi, [...(item.parameters ?? []), ...(op.parameters ?? [])], 'path'),
        integerQueryParams: integerParams(openapi, [...(item.parameters ?? []), ...(op.parameters ?? [])], 'query'),
      });
    }
  }
  return rows.sort((a, b) => a.operationId.localeCompare(b.operationId));
}

function operationsModule(rows: OperationRow[]): string {
  const lines = rows.map(
    (r) =>
      `  ${r.operationId}: { method: '${r.method}', path: '${r.path}', scopes: [${r.scopes.map((s) => `'${s}'`).join(', ')}], rawBody: ${r.rawBody}, body: '${r.body}', integerPathParams: [${r.integerPathParams.map((n) => `'${n}'`).join(', ')}], integerQueryParams: [${r.integerQueryParams.map((n) => `'${n}'`).join(', ')}] },`,
  );
  return `// Generated by scripts/generate.ts from spec/. Do not edit.
import type { operations } from './api.d.ts';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options';
export type ScopeCategory = 'activitypub' | 'admin' | 'issue' | 'misc' | 'notification' | 'organization' | 'package' | 'repository' | 'user';

export interface OperationInfo {
  readonly method: HttpMethod;
  /** Full path as served, in OpenAPI template form. */
  readonly path: string;
  /** Token scope categories the operation needs (all of them), read or write by method. */
  readonly scopes: readonly ScopeCategory[];
  /** The body is a protocol stream, not validated against a schema. */
  readonly rawBody: boolean;
  /** How the body is read: parsed as JSON or text, handed to the handler unread (stream), or not read (none). */
  readonly body: 'none' | 'json' | 'text' | 'stream';
  /** Path parameters the contract types as integers (the router hands over strings). */
  readonly integerPathParams: readonly string[];
  /** Query parameters the contract types as integers or arrays of integers. */
  readonly integerQueryParams: readonly string[];
}

export const OPERATIONS = {
${lines.join('\n')}
} as const satisfies Record<keyof operations, OperationInfo>;

export type OperationId = keyof typeof OPERATIONS;

type Parameters<Op extends OperationId> = operations[Op] extends { parameters: infer P } ? P : never;
type Field<T, K extends string> = T extends { [key in K]?: infer V } ? (undefined extends V ? Exclude<V, undefined> | Record<string, never> : V) : never;

/** Path parameters of an operation. */
export type PathParams<Op extends OperationId> = Field<Parameters<Op>, 'path'>;
/** Query parameters of an operation. */
export type QueryParams<Op extends OperationId> = Field<Parameters<Op>, 'query'>;
/** JSON (or text) request body of an operation. */
export type RequestBody<Op extends OperationId> = operations[Op] extends { requestBody?: { content: infer C } }
  ? C extends { 'application/json': infer B } ? B : C extends { 'text/plain': infer T } ? T : never
  : never;
type Responses<Op extends OperationId> = operations[Op] extends { responses: infer R } ? R : never;
/** Status codes an operation may answer with. */
export type ResponseStatus<Op extends OperationId> = keyof Responses<Op> & number;
/** Body of one response of an operation. */
export type ResponseBody<Op extends OperationId, Status extends ResponseStatus<Op>> = Responses<Op>[Status] extends {
  content: infer C;
}
  ? C[keyof C]
  : undefined;
`;
}

async function outputs(): Promise<Map<string, string>> {
  const documents = [];
  for (const source of SOURCES) {
    const swagger = JSON.parse(fs.readFileSync(path.join(root, source.file), 'utf8'));
    documents.push({ doc: await convert(swagger), prefix: source.prefix });
  }
  const openapi = merge(documents);
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const ast = await openapiTS(openapi as any, { alphabetize: true });
  const header = '// Generated by scripts/generate.ts from spec/. Do not edit.\n';
  return new Map([
    ['openapi.json', JSON.stringify(openapi, null, 2) + '\n'],
    ['api.d.ts', header + astToString(ast)],
    ['operations.ts', operationsModule(operationRows(openapi))],
    ['operation-routes.ts', routesModule(openapi)],
    ...validatorModules(openapi),
  ]);
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const files = await outputs();
  const stale: string[] = [];
  for (const [name, content] of files) {
    const target = path.join(generatedDir, name);
    const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : null;
    if (current === content) continue;
    if (check) stale.push(`generated/${name}`);
    else {
      fs.mkdirSync(generatedDir, { recursive: true });
      fs.writeFileSync(target, content);
    }
  }
  if (stale.length > 0) {
    console.error(`Generated files differ from what spec/ yields (run \`npm run generate\`): ${stale.join(', ')}`);
    process.exit(1);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
