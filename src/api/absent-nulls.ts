// Go clients send null for nil slices and pointers, and Forgejo reads a null field as absent. Nulls the contract
// does not allow are dropped before validation, so that a null field means "absent" on every route.
import fs from 'node:fs';
import { OPERATIONS, type OperationId } from '../../generated/operations.ts';
import { projectPath } from '../lib/project-root.ts';

const CONTRACT_FILE = projectPath('generated', 'openapi.json');

interface Schema {
  $ref?: string;
  type?: string;
  nullable?: boolean;
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  content?: Record<string, { schema?: Schema }>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the contract document, walked by JSON pointer
let document: Record<string, any> | undefined;
const bodySchemas = new Map<OperationId, Schema | undefined>();

function resolve(schema: Schema | undefined): Schema | undefined {
  let resolved = schema;
  for (let hops = 0; resolved?.$ref && hops < 16; hops++) {
    resolved = resolved.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((node, key) => node?.[key], document);
  }
  return resolved;
}

function bodySchema(operationId: OperationId): Schema | undefined {
  if (bodySchemas.has(operationId)) return bodySchemas.get(operationId);
  document ??= JSON.parse(fs.readFileSync(CONTRACT_FILE, 'utf8'));
  const { path, method } = OPERATIONS[operationId];
  const requestBody = resolve(document!.paths[path]?.[method]?.requestBody);
  const schema = resolve(requestBody?.content?.['application/json']?.schema);
  bodySchemas.set(operationId, schema);
  return schema;
}

function propertySchema(schema: Schema | undefined, key: string): Schema | undefined {
  const declared = schema?.properties?.[key];
  if (declared) return resolve(declared);
  return typeof schema?.additionalProperties === 'object' ? resolve(schema.additionalProperties) : undefined;
}

/**
 * A body of JSON `null` where the contract takes an object is an empty object: Go decodes `null` into a struct as
 * nothing at all, so Forgejo reads it as an edit that changes nothing (or a create that lacks its fields).
 */
export function nullBodyAsAbsent(operationId: OperationId, body: unknown): unknown {
  if (body !== null) return body;
  const schema = bodySchema(operationId);
  return schema && !schema.nullable && (schema.type === 'object' || schema.properties) ? {} : body;
}

/** Deletes, in place and through nested objects, every property whose value is null where null is not allowed. */
export function dropDisallowedNulls(operationId: OperationId, body: unknown): void {
  if (body === null || typeof body !== 'object') return;
  const pending: [object, Schema | undefined][] = [[body, bodySchema(operationId)]];
  while (pending.length > 0) {
    const [value, schema] = pending.pop()!;
    if (Array.isArray(value)) {
      const items = resolve(schema?.items);
      for (const item of value) if (item !== null && typeof item === 'object') pending.push([item, items]);
      continue;
    }
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const child = propertySchema(schema, key);
      const field = record[key];
      if (field === null) {
        if (!child?.nullable) delete record[key];
      } else if (typeof field === 'object') {
        pending.push([field, child]);
      }
    }
  }
}
