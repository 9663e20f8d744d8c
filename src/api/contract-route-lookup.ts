// express-openapi-validator 5.6 finds a request's operation (openapi.metadata.js lookupRoute) by walking every
// contract route on every request: Object.entries of the route map, a pattern cache key built per route, then the
// pattern's regexp — about 0.2 ms a request, the largest single cost of a small GET. This is the same middleware
// with the routes compiled once into a table: the same first-match order, the same `req.openapi`, the same 404,
// 405 and 400 errors. The library calls it through its module's export, so replacing the export is enough.
import type { RequestHandler } from 'express';
import { validatorDependency, validatorModule } from './validator-internals.ts';

interface OpenApiContext {
  expressRouteMap: Record<string, { basePath: string; _openApiRoute: string } & Record<string, unknown>>;
  openApiRouteMap: Record<string, Record<string, unknown>>;
  apiDoc: { paths: Record<string, Record<string, unknown>> };
  useRequestUrl: boolean;
  serial: number;
  shouldIgnoreRoute(path: string): boolean;
  isManagedRoute(path: string): boolean;
}

interface ResponseApiDoc {
  paths: Record<string, Record<string, unknown>>;
}

interface CompiledRoute {
  expressRoute: string;
  openApiRoute: string;
  pathKey: string;
  regexp: RegExp;
  keys: string[];
  /** The route's literal start, lower-cased unless routing is case-sensitive: a cheap test before the regexp. */
  prefix: string;
  /** Path segments the route always has; null when optional or wildcard parts make it vary. */
  segments: number | null;
}

function segmentCount(urlPath: string): number {
  let count = 0;
  for (let i = 0; i < urlPath.length - 1; i++) if (urlPath.charCodeAt(i) === 47) count++;
  return count;
}

/** The routes a path of `segments` segments can match, in contract order, computed once per length. */
class RouteTable {
  private readonly bySegments = new Map<number, CompiledRoute[]>();
  constructor(private readonly routes: CompiledRoute[]) {}

  candidates(urlPath: string): CompiledRoute[] {
    const segments = segmentCount(urlPath);
    let list = this.bySegments.get(segments);
    if (!list) this.bySegments.set(segments, (list = this.routes.filter((route) => route.segments === null || route.segments === segments)));
    return list;
  }
}

type ErrorClass = new (details: { path: string; message: string; headers?: Record<string, string> }) => Error;

function compileRoutes(context: OpenApiContext, options: { sensitive: boolean; strict: boolean }): RouteTable {
  const { pathToRegexp } = validatorDependency('path-to-regexp') as unknown as {
    pathToRegexp(route: string, options: object): { regexp: RegExp; keys: Array<{ name: string }> };
  };
  return new RouteTable(Object.entries(context.expressRouteMap).map(([expressRoute, methods]) => {
    const { regexp, keys } = pathToRegexp(expressRoute, options);
    const varies = /[*{?]/.test(expressRoute);
    // Up to the first parameter, wildcard, group or escape: every path the regexp matches starts with it.
    const literal = expressRoute.slice(0, expressRoute.search(/[:*{}()\[\]?+!\\]|$/));
    return {
      expressRoute, openApiRoute: methods._openApiRoute, pathKey: methods._openApiRoute.substring(methods.basePath.length), regexp,
      keys: keys.map((key) => key.name), prefix: options.sensitive ? literal : literal.toLowerCase(), segments: varies ? null : segmentCount(expressRoute),
    };
  }));
}

export function installContractRouteLookup(): void {
  const metadata = validatorModule('middlewares/openapi.metadata.js');
  if (metadata.__anvilPatched) return;
  const errors = validatorModule('framework/types.js') as unknown as Record<'MethodNotAllowed' | 'NotFound' | 'BadRequest', ErrorClass>;
  const { httpMethods } = validatorModule('middlewares/parsers/schema.preprocessor.js') as unknown as { httpMethods: Set<string> };

  metadata.applyOpenApiMetadata = (context: OpenApiContext, responseApiDoc?: ResponseApiDoc): RequestHandler => {
    let routes: RouteTable | undefined;
    let sensitive = false;
    return (req, _res, next) => {
      const requestPath = req.path.startsWith(req.baseUrl) ? req.path : `${req.baseUrl}/${req.path}`;
      if (context.shouldIgnoreRoute(requestPath)) return next();
      if (!routes) {
        sensitive = !!req.app.enabled('case sensitive routing');
        routes = compileRoutes(context, { sensitive, strict: !!req.app.enabled('strict routing') });
      }
      const url = (context.useRequestUrl ? req.url : req.originalUrl).split('?')[0];
      const comparable = sensitive ? url : url.toLowerCase();
      const method = req.method.toLowerCase();
      for (const route of routes.candidates(url)) {
        if (!comparable.startsWith(route.prefix)) continue;
        const match = route.regexp.exec(url);
        if (!match) continue;
        let pathParams: Record<string, string>;
        try {
          pathParams = Object.fromEntries(route.keys.map((key, index) => [key, decodeURIComponent(match[index + 1])]));
        } catch {
          throw new errors.BadRequest({ path: req.path, message: `malformed uri'` });
        }
        const schema = context.apiDoc.paths[route.pathKey][method];
        if (!schema) {
          throw new errors.MethodNotAllowed({
            path: req.path,
            message: `${req.method} method not allowed`,
            headers: { Allow: Object.keys(context.openApiRouteMap[route.openApiRoute]).filter((key) => httpMethods.has(key.toLowerCase())).join(', ') },
          });
        }
        req.openapi = { expressRoute: route.expressRoute, openApiRoute: route.openApiRoute, pathParams, schema, serial: context.serial } as never;
        req.params = pathParams;
        if (responseApiDoc) (req.openapi as unknown as Record<string, unknown>)._responseSchema = responseApiDoc.paths[route.pathKey][method];
        return next();
      }
      if (context.isManagedRoute(requestPath)) throw new errors.NotFound({ path: req.path, message: 'not found' });
      next();
    };
  };
  metadata.__anvilPatched = true;
}
