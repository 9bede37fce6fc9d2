/**
 * Whether a request belongs to the API: the one test every adapter and bridge makes before handing
 * a request to the core, so that all of them agree on which paths are Latchkey's.
 */
import { pathOf } from '../model/core-request.js';

/**
 * True when the path of `target` (a request target: path and optional query, or the absolute form
 * `http://host/path`) is `basePath` itself or below it. `/api/v2` and `/api/v2/x` are under
 * `/api/v2`; `/api/v2-lookalike` is not. An empty `basePath` (the API at the root) takes every path.
 */
export function isUnderBasePath(target: string, basePath: string): boolean {
  if (basePath === '') return true;
  const url = pathOf(target);
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  return path === basePath || path.startsWith(`${basePath}/`);
}
