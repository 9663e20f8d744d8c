// Query values Forgejo lower-cases before reading them (`subject-type=Issue` is `issue`), marked in the contract
// with `x-case-insensitive`, are lower-cased before validation, so the contract's lower-case enum accepts them.
import type { RequestHandler } from 'express';

interface ParameterObject { name?: string; in?: string; 'x-case-insensitive'?: boolean }

const namesByOperation = new Map<string, readonly string[]>();

function caseInsensitiveNames(operationId: string, parameters: readonly ParameterObject[] = []): readonly string[] {
  let names = namesByOperation.get(operationId);
  if (!names) {
    names = parameters.filter((p) => p.in === 'query' && p['x-case-insensitive'] === true).map((p) => p.name!);
    namesByOperation.set(operationId, names);
  }
  return names;
}

const lowered = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value);

export function lowerCaseInsensitiveQueryValues(): RequestHandler {
  return (req, _res, next) => {
    const schema = req.openapi?.schema as { operationId?: string; parameters?: ParameterObject[] } | undefined;
    if (!schema?.operationId) return next();
    const query = req.query as Record<string, unknown>;
    for (const name of caseInsensitiveNames(schema.operationId, schema.parameters)) {
      if (!Object.hasOwn(query, name)) continue;
      const value = query[name];
      query[name] = Array.isArray(value) ? value.map(lowered) : lowered(value);
    }
    next();
  };
}
