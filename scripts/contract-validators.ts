// The contract compiled once, here, into validator modules (ajv standalone code): the server requires them instead of
// compiling each operation's schemas on its first request. The schemas are the ones express-openapi-validator used to
// build, with the same ajv settings, so the answers (coercion, defaults, messages) are the ones clients knew.
import standaloneCode from 'ajv/dist/standalone';
import { _ } from 'ajv';
import { CONTRACT_FORMATS } from '../src/api/contract-formats.ts';

type Json = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
const ALL_TYPES = ['string', 'number', 'boolean', 'object', 'array'];
/** Formats whose strings were typed with a separate keyword, so a nullable one reads "must be string or null". */
const SERIALISED_FORMATS = new Set(['date', 'date-time']);
const FORMATS_MODULE = '../src/api/contract-formats.ts';

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function resolve(openapi: Json, node: Json | undefined): Json | undefined {
  let resolved = node;
  for (let hops = 0; resolved?.$ref && hops < 16; hops++) {
    resolved = resolved.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((at: Json | undefined, key: string) => at?.[key], openapi);
  }
  return resolved;
}

/**
 * A `date`/`date-time` string schema is typed by a keyword of its own (`x-eov-type`, ajv's JTD `type`), visited along
 * the same branches as the validator this replaces: allOf, else oneOf, else anyOf, else array items, else properties,
 * else additionalProperties. Array parameters were not visited.
 */
function typeSerialisedStrings(openapi: Json): void {
  const seen = new Set<Json>();
  const visit = (schema: Json | undefined): void => {
    if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
    seen.add(schema);
    if (schema.$ref) return visit(resolve(openapi, schema));
    if (schema.type === 'string' && SERIALISED_FORMATS.has(schema.format)) {
      schema['x-eov-type'] = schema.type;
      if ('nullable' in schema) schema.type = ALL_TYPES;
      else delete schema.type;
    }
    const branch = schema.allOf ?? schema.oneOf ?? schema.anyOf;
    if (branch) branch.forEach(visit);
    else if (schema.type === 'array' && schema.items) visit(schema.items);
    else if (schema.properties) Object.values<Json>(schema.properties).forEach(visit);
    else if (schema.additionalProperties) visit(schema.additionalProperties);
  };
  for (const schema of Object.values<Json>(openapi.components?.schemas ?? {})) visit(schema);
  for (const { op } of operations(openapi)) {
    for (const content of Object.values<Json>(resolve(openapi, op.requestBody)?.content ?? {}))
      visit(resolve(openapi, content.schema));
  }
  for (const { op } of operations(openapi)) {
    for (const response of Object.values<Json>(op.responses ?? {})) {
      for (const content of Object.values<Json>(resolve(openapi, response)?.content ?? {}))
        visit(resolve(openapi, content.schema));
    }
  }
  for (const { parameters } of operations(openapi)) {
    for (const parameter of parameters)
      if (parameter.schema && !parameter.schema.items && !parameter.schema.$ref) visit(parameter.schema);
  }
}

interface OperationEntry {
  path: string;
  method: string;
  op: Json;
  /** The operation's parameters and then its path item's, path-level ones only where the name is not taken. */
  parameters: Json[];
}

function operations(openapi: Json): OperationEntry[] {
  const entries: OperationEntry[] = [];
  for (const [path, item] of Object.entries<Json>(openapi.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const own: Json[] = (op.parameters ?? []).map((p: Json) => resolve(openapi, p));
      const shared = (item.parameters ?? [])
        .map((p: Json) => resolve(openapi, p))
        .filter((p: Json) => !own.some((o) => o.name === p.name));
      entries.push({ path, method, op, parameters: [...own, ...shared] });
    }
  }
  return entries;
}

/** The expression the generated code reads the formats from; the import is written at the top of each module. */
const FORMATS = _`CONTRACT_FORMATS`;

type ContractAjv = import('ajv').default;

function newAjv(options: Json): ContractAjv {
  const Ajv = require('ajv-draft-04').default;
  const jtdType = require('ajv/dist/vocabularies/jtd/type').default;
  const ajv = new Ajv({
    strict: false,
    strictNumbers: true,
    strictTuples: true,
    allowUnionTypes: false,
    validateSchema: false,
    // Component schemas stay functions of their own, shared by every operation that names them.
    inlineRefs: false,
    validateFormats: true,
    formats: CONTRACT_FORMATS,
    code: { source: true, esm: true, lines: false, formats: _`${FORMATS}` },
    ...options,
  });
  ajv.addKeyword({ ...jtdType, keyword: 'x-eov-type', before: 'type' });
  return ajv;
}

function checkFormats(openapi: Json): void {
  const unknown = new Set<string>();
  JSON.stringify(openapi, (key, value) => {
    if (key === 'format' && typeof value === 'string' && !(value in CONTRACT_FORMATS)) unknown.add(value);
    return value;
  });
  if (unknown.size > 0)
    throw new Error(`formats without a meaning in src/api/contract-formats.ts: ${[...unknown].join(', ')}`);
}

function addComponents(ajv: ContractAjv, openapi: Json): void {
  for (const [id, schema] of Object.entries<Json>(openapi.components?.schemas ?? {}))
    ajv.addSchema(schema, `#/components/schemas/${id}`);
}

const PARAMETER_FIELDS: Record<string, string> = {
  query: 'query',
  header: 'headers',
  path: 'params',
  cookie: 'cookies',
};

/** Parameters as one object schema per request field, as the validator this replaces built them. */
function parametersSchema(parameters: Json[]): Json {
  const fields: Json = { query: {}, headers: {}, params: {}, cookies: {} };
  for (const parameter of parameters) {
    const field = PARAMETER_FIELDS[parameter.in];
    const name = parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name;
    fields[field].properties ??= ((fields[field].type = 'object'), {});
    fields[field].properties[name] = parameter.schema;
    if (parameter.required) (fields[field].required ??= []).push(name);
  }
  return { required: ['query', 'headers', 'params'], properties: { ...fields, body: {} } };
}

function bodySchema(schema: Json | undefined, openapi: Json): Json | null {
  const body = schema ?? {};
  if (body.format === 'binary' || Object.keys(body).length === 0) return null;
  const wrapper: Json = { properties: { query: {}, headers: {}, params: {}, cookies: {}, body } };
  // The body schema's own `required` list (a $ref's target's) made the body itself required.
  if ((resolve(openapi, body) ?? body).required) wrapper.required = ['body'];
  return wrapper;
}

/** Schemas by export name; an identical schema (most operations share `page`/`limit`, `{owner}/{repo}`) is one. */
class SchemaSet {
  readonly byName = new Map<string, Json>();
  private readonly nameByText = new Map<string, string>();

  /** The export name of `schema`, the first key it came with. */
  add(key: string, schema: Json): string {
    const text = JSON.stringify(schema);
    let name = this.nameByText.get(text);
    if (!name) {
      name = exportName(key);
      this.nameByText.set(text, name);
      this.byName.set(name, schema);
    }
    return name;
  }
}

function requestTable(openapi: Json): { parameters: SchemaSet; bodies: SchemaSet; table: string[] } {
  const schemas = new SchemaSet();
  const bodySchemas = new SchemaSet();
  const table: string[] = [];
  for (const { op, parameters } of operations(openapi)) {
    const id = op.operationId;
    const parametersName = schemas.add(`${id}$params`, parametersSchema(parameters));
    const requestBody = resolve(openapi, op.requestBody);
    const bodies = Object.entries<Json>(requestBody?.content ?? {}).map(([type, content]) => {
      const wrapper = bodySchema(resolve(openapi, content.schema), openapi);
      const key = `${id}$body$${type}`;
      return `{ type: ${JSON.stringify(type)}, validate: ${wrapper ? `bodies.${bodySchemas.add(key, wrapper)}` : 'null'} }`;
    });
    const arrays = parameters.filter((p) => p.in === 'query' && p.schema?.type === 'array').map((p) => p.name);
    const lowered = parameters.filter((p) => p.in === 'query' && p['x-case-insensitive'] === true).map((p) => p.name);
    const required = requestBody?.required === undefined ? 'undefined' : String(requestBody.required);
    const body = requestBody ? `{ required: ${required}, contents: [${bodies.join(', ')}] }` : 'null';
    const fields = [
      `parameters: ${parametersName}`,
      `body: ${body}`,
      `arrayQuery: ${JSON.stringify(arrays)}`,
      `caseInsensitiveQuery: ${JSON.stringify(lowered)}`,
    ];
    table.push(`  ${id}: { ${fields.join(', ')} },`);
  }
  return { parameters: schemas, bodies: bodySchemas, table };
}

/** JSON media types are validated; others (and wildcards without a schema) are not. */
function validatesMediaType(type: string): boolean {
  const media = type.split(';')[0].trim().toLowerCase();
  if (media === '*/*' || /^[a-z]+\/\*$/.test(media)) return true;
  const subtype = media.split('/')[1] ?? '';
  return subtype === 'json' || subtype.endsWith('+json');
}

function responseTable(openapi: Json): { schemas: SchemaSet; table: string[] } {
  const schemas = new SchemaSet();
  const table: string[] = [];
  for (const { op } of operations(openapi)) {
    const id = op.operationId;
    const statuses: string[] = [];
    for (const [status, raw] of Object.entries<Json>(op.responses ?? {})) {
      const response = resolve(openapi, raw)!;
      if (!response.content) {
        statuses.push(`${JSON.stringify(status)}: {}`);
        continue;
      }
      const types = Object.keys(response.content).filter(
        (type) => validatesMediaType(type) && response.content[type]?.schema,
      );
      if (types.length === 0) continue;
      const entries = types.map((type) => {
        const key = `${id}$${status}$${type}`;
        const name = schemas.add(key, { type: 'object', properties: { response: response.content[type].schema } });
        return `${JSON.stringify(type)}: ${name}`;
      });
      statuses.push(`${JSON.stringify(status)}: { ${entries.join(', ')} }`);
    }
    table.push(`  ${id}: { ${statuses.join(', ')} },`);
  }
  return { schemas, table };
}

/** End of the JSON literal starting at `start` (an object or array), skipping strings. */
function literalEnd(code: string, start: number): number {
  let depth = 0;
  for (let i = start; i < code.length; i++) {
    const char = code[i];
    if (char === '"') {
      for (i++; code[i] !== '"'; i++) if (code[i] === '\\') i++;
    } else if (char === '{' || char === '[') depth++;
    else if ((char === '}' || char === ']') && --depth === 0) return i + 1;
  }
  throw new Error('unterminated literal in generated code');
}

/** Standalone code keeps every root schema as a constant; those no validator reads are dropped. */
function dropUnreadSchemas(code: string): string {
  let out = '';
  let at = 0;
  for (const match of code.matchAll(/const (schema\d+) = /g)) {
    if (match.index < at) continue;
    const end = literalEnd(code, match.index + match[0].length) + 1;
    const name = match[1];
    const reads = code.split(new RegExp(`\\b${name}\\b`)).length - 1;
    out += code.slice(at, match.index);
    if (reads > 1) out += code.slice(match.index, end);
    at = end;
  }
  return out + code.slice(at);
}

function exportName(key: string): string {
  return key.replace(/[^A-Za-z0-9_$]/g, '_');
}

interface ModuleParts {
  comment: string;
  schemas: SchemaSet;
  imports?: string;
  table?: { name: string; type: string; rows: string[] };
}

function standaloneModule(ajv: ContractAjv, parts: ModuleParts): string {
  const names: Record<string, string> = {};
  for (const [name, schema] of parts.schemas.byName) {
    // A key that is a fragment keeps `#/components/schemas/…` refs resolving to the shared component schemas.
    ajv.addSchema(schema, `#/${name}`);
    names[name] = `#/${name}`;
  }
  const code = dropUnreadSchemas(standaloneCode(ajv, names).replace(/^"use strict";\n?/, ''));
  const rows = parts.table?.rows.join('\n');
  const table = parts.table
    ? `\nexport const ${parts.table.name}: Record<string, ${parts.table.type}> = {\n${rows}\n};\n`
    : '';
  return `// Generated by scripts/generate.ts from spec/. Do not edit.
// ${parts.comment}
// @ts-nocheck
import { CONTRACT_FORMATS } from '${FORMATS_MODULE}';
${parts.imports ?? ''}${code}
${table}`;
}

/** The request and response validator modules for a converted contract. */
export function validatorModules(converted: Json): Map<string, string> {
  const openapi = clone(converted);
  checkFormats(openapi);
  typeSerialisedStrings(openapi);
  // Query, path and header values are strings on the wire: they are coerced to the schema's type; bodies are not.
  const parameters = newAjv({ coerceTypes: true, useDefaults: true });
  const bodies = newAjv({ coerceTypes: false, useDefaults: true });
  const responses = newAjv({ useDefaults: false, removeAdditional: false });
  for (const ajv of [parameters, bodies, responses]) addComponents(ajv, openapi);
  const requests = requestTable(openapi);
  const answers = responseTable(openapi);
  return new Map([
    [
      'request-bodies.ts',
      standaloneModule(bodies, {
        comment: "Validators of each operation's request body, by media type.",
        schemas: requests.bodies,
      }),
    ],
    [
      'request-validators.ts',
      standaloneModule(parameters, {
        comment: "Validators of each operation's parameters, and what the server needs to check its body.",
        schemas: requests.parameters,
        imports: [
          "import type { RequestContract } from '../src/api/contract-types.ts';",
          "import * as bodies from './request-bodies.ts';",
          '',
        ].join('\n'),
        table: { name: 'REQUEST_CONTRACTS', type: 'RequestContract', rows: requests.table },
      }),
    ],
    [
      'response-validators.ts',
      standaloneModule(responses, {
        comment: "Validators of each operation's responses, by status and media type (the tests check every answer).",
        schemas: answers.schemas,
        imports: "import type { ResponseContract } from '../src/api/contract-types.ts';\n",
        table: { name: 'RESPONSE_CONTRACTS', type: 'ResponseContract', rows: answers.table },
      }),
    ],
  ]);
}
