/**
 * The built app, read once from `assets/` (a few files, tens of kilobytes) and kept in memory with
 * a gzip copy and an ETag each, so serving a file costs a map lookup.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The placeholder base the app is built with (see `vite.config.ts`). */
export const BUILD_BASE = '/__latchkey_dashboard__/';
/** Stands for the API's mount point in the app's page (a meta tag the app reads). */
export const API_BASE_PLACEHOLDER = '__LATCHKEY_API_BASE__';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** One file of the app, ready to send. */
export interface Asset {
  type: string;
  body: Uint8Array;
  gzip: Uint8Array | null;
  etag: string;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

function toAsset(path: string, body: Uint8Array): Asset {
  const type = TYPES[extname(path)] ?? 'application/octet-stream';
  const compressible = /^(text\/|application\/json|image\/svg)/.test(type) && body.byteLength > 512;
  return {
    type,
    body,
    gzip: compressible ? gzipSync(body, { level: 9 }) : null,
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
  };
}

/**
 * Reads every file under `dir`, keyed by its path relative to it with `/` separators; in text
 * files each key of `replacements` becomes its value (the build's placeholder base, the API's
 * mount point). Returns null when the app is not built.
 */
export function loadAssets(dir: string, replacements: Record<string, string>): Map<string, Asset> | null {
  if (!existsSync(join(dir, 'index.html'))) return null;
  const assets = new Map<string, Asset>();
  for (const path of walk(dir)) {
    const key = relative(dir, path).split(sep).join('/');
    let body: Uint8Array = readFileSync(path);
    if (/\.(html|js|css)$/.test(key)) {
      let text = body.toString();
      for (const [from, to] of Object.entries(replacements)) text = text.replaceAll(from, to);
      body = Buffer.from(text);
    }
    assets.set(key, toAsset(key, body));
  }
  return assets;
}
