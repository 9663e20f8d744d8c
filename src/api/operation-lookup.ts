// Finds the request's operation in the contract's route table (generated/operation-routes.ts): the first route whose
// pattern matches, its path parameters decoded. A path the contract does not have answers 404, a method its path
// does not take 405 with Allow.
import type { RequestHandler } from 'express';
import { CONTRACT_ROUTES } from '../../generated/operation-routes.ts';
import type { OperationId } from '../../generated/operations.ts';
import { ContractFailure } from './contract-failure.ts';
import type { ContractRoute } from './contract-types.ts';

/** Slashes in a path, a trailing one aside. */
function segmentCount(urlPath: string): number {
  let count = 0;
  for (let i = 0; i < urlPath.length - 1; i++) if (urlPath.charCodeAt(i) === 47) count++;
  return count;
}

const routesBySegments = new Map<number, ContractRoute[]>();
/** Routes whose last parameter takes the rest of the path: tried after the routes of the path's exact length. */
const restOfPathRoutes = CONTRACT_ROUTES.filter((route) => route.restOfPath);
for (const route of CONTRACT_ROUTES) {
  const list = routesBySegments.get(route.segments) ?? [];
  list.push(route);
  routesBySegments.set(route.segments, list);
}

function decodeParams(route: ContractRoute, match: RegExpExecArray, path: string): Record<string, string> {
  const params: Record<string, string> = {};
  try {
    route.keys.forEach((key, index) => (params[key] = decodeURIComponent(match[index + 1])));
  } catch {
    throw new ContractFailure(400, "malformed uri'", [{ path, message: "malformed uri'" }]);
  }
  return params;
}

interface Found {
  route: ContractRoute;
  match: RegExpExecArray;
}

function matchIn(
  routes: readonly ContractRoute[],
  url: string,
  comparable: string,
  fewerSegmentsThan = Infinity,
): Found | null {
  for (const route of routes) {
    if (route.segments >= fewerSegmentsThan || !comparable.startsWith(route.prefix)) continue;
    const match = route.pattern.exec(url);
    if (match) return { route, match };
  }
  return null;
}

export function matchOperation(): RequestHandler {
  return (req, _res, next) => {
    const url = req.originalUrl.split('?')[0];
    const comparable = url.toLowerCase();
    const segments = segmentCount(url);
    const found =
      matchIn(routesBySegments.get(segments) ?? [], url, comparable) ??
      matchIn(restOfPathRoutes, url, comparable, segments);
    if (!found) throw new ContractFailure(404, 'not found');
    const { route, match } = found;
    const pathParams = decodeParams(route, match, req.path);
    const id = route.operations[req.method.toLowerCase()] as OperationId | undefined;
    if (!id) throw new ContractFailure(405, `${req.method} method not allowed`, undefined, { Allow: route.allow });
    req.operation = { id, pathParams };
    next();
  };
}
