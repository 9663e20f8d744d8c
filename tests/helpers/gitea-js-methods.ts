// gitea-js's methods, read from the package's own bundle (each method carries a `@request METHOD:/path` comment
// above its definition), and the contract's operations they reach: same HTTP method, same path once the names of
// the path parameters are set aside.
import fs from 'node:fs';
import path from 'node:path';

export interface GiteaJsMethod {
  /** The client's group (`repository`, `user`…) and the method's name in it. */
  readonly group: string;
  readonly name: string;
  readonly method: string;
  readonly path: string;
  /** The method's parameters in order, without the trailing request options. */
  readonly params: string[];
}

export interface ContractOperation {
  readonly id: string;
  readonly method: string;
  readonly path: string;
  readonly statuses: number[];
  /** The schema of the JSON body, with `$ref`s left as they are. */
  readonly bodySchema?: unknown;
}

interface SwaggerOperation {
  operationId: string;
  responses: Record<string, unknown>;
  parameters?: { in: string; schema?: unknown }[];
}

export function listGiteaJsMethods(): GiteaJsMethod[] {
  const bundle = fs.readFileSync(path.join(path.dirname(require.resolve('gitea-js')), 'index.js'), 'utf8');
  const lines = bundle.split('\n');
  const methods: GiteaJsMethod[] = [];
  let group = '';
  for (let i = 0; i < lines.length; i++) {
    const opened = /^ {4}this\.(\w+) = \{/.exec(lines[i]);
    if (opened) group = opened[1];
    const request = /@request (\w+):(\S+)/.exec(lines[i]);
    if (!request) continue;
    let definition: RegExpExecArray | null = null;
    while (!definition) definition = /^\s+(\w+): \(([^)]*)\) =>/.exec(lines[++i]);
    const params = definition[2]
      .split(',')
      .map((param) => param.trim())
      .filter((param) => param && !param.startsWith('params'));
    methods.push({ group, name: definition[1], method: request[1], path: request[2], params });
  }
  return methods;
}

export function normalisedRoute(method: string, route: string): string {
  return `${method.toUpperCase()} ${route.replace(/\{[^}]+\}/g, '{}')}`;
}

export function contractOperations(specFile: string): Map<string, ContractOperation> {
  const spec = JSON.parse(fs.readFileSync(specFile, 'utf8')) as {
    paths: Record<string, Record<string, SwaggerOperation>>;
  };
  const operations = new Map<string, ContractOperation>();
  for (const [route, item] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (method === 'parameters') continue;
      operations.set(normalisedRoute(method, route), {
        id: operation.operationId,
        method: method.toUpperCase(),
        path: route,
        statuses: Object.keys(operation.responses).map(Number),
        bodySchema: operation.parameters?.find((param) => param.in === 'body')?.schema,
      });
    }
  }
  return operations;
}
