/**
 * The code of `docs/embedding.md`, taken from the page itself so the page stays true: its host
 * page (the element's HTML), its React component and its Express server. The Express block runs
 * as a real server, with only what it leaves to the host app around it (a store, and the host's
 * own login: a cookie naming the signed-in user); the React block is type-checked and bundled.
 * Each runs from `test-output/embedding-doc/`, inside this package, so its imports resolve as a
 * host app's would.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stopExample } from '@latchkey/test-utils/spawn';
import { build } from 'esbuild';
import { until } from './harness.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DIR = fileURLToPath(new URL('../test-output/embedding-doc/', import.meta.url));
const require_ = createRequire(import.meta.url);

/** The origin the doc's examples frame the portal from. */
export const DOC_ORIGIN = 'https://app.example.com';
/** The member the host app's login signs in (the doc's own). */
export const USER = 'alice@example.com';
/** The cookie the stubbed login reads. */
export const LOGIN_COOKIE = 'host_user';

/** The code block of `lang` that follows the heading `heading` in docs/embedding.md. */
export function docBlock(heading: string, lang: string): string {
  const doc = readFileSync(join(ROOT, 'docs/embedding.md'), 'utf8');
  const at = doc.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`docs/embedding.md has no heading ${heading}`);
  const open = doc.indexOf(`\n\`\`\`${lang}\n`, at);
  if (open < 0) throw new Error(`no ${lang} block after ${heading}`);
  const start = open + lang.length + 5;
  return doc.slice(start, doc.indexOf('\n```\n', start) + 1);
}

/** What the doc's Express block leaves to the host app: a store, and its own login. */
const PRELUDE = `// The host app's own: a store, and its login (stubbed: a cookie names who signed in).
import { createMemoryStore } from '@latchkey/core';
const store = createMemoryStore();
const requireAdmin = (req, res, next) => {
  const signedIn = /(?:^|; )${LOGIN_COOKIE}=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
  if (!signedIn) return res.status(401).json({ error: 'sign in first' });
  req.user = { organization: 'acme', email: decodeURIComponent(signedIn) };
  next();
};
`;

/** The host's pages and start, after the doc's block. */
const EPILOGUE = `
await core.bootstrap({ organization: 'acme', user: ${JSON.stringify(USER)}, token: process.env.ADMIN_TOKEN });
const page = (body) => \`<!doctype html><html lang="en"><meta charset="utf-8"><title>Settings</title>
<main><h1>Settings</h1>\${body}</main></html>\`;
app.get('/settings', requireAdmin, (_req, res) => res.type('html').send(page(process.env.HOST_PAGE)));
app.get('/react', requireAdmin, (_req, res) =>
  res.type('html').send(page('<div id="root"></div><script type="module" src="/react.js"></script>')));
app.get('/react.js', (_req, res) => res.type('js').sendFile(process.env.REACT_BUNDLE));
app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('host app listening'));
`;

/** The doc's host page: the element's HTML, loading the element from the dashboard's own URL. */
export function hostPage(latchkey: string): string {
  const html = docBlock('## The element: `<latchkey-portal>`', 'html');
  const bare = "import '@latchkey/dashboard/embed';";
  if (!html.includes(bare)) throw new Error(`the element's HTML no longer has ${bare}`);
  // Without a bundler, as the block's own comment says: the script the dashboard serves.
  return html.replace(bare, `import '${latchkey}/dashboard/latchkey-portal.js';`);
}

/** Type-checks the doc's React block and bundles it, rendered into `#root`; answers the file. */
export async function bundleReact(): Promise<string> {
  mkdirSync(DIR, { recursive: true });
  writeFileSync(join(DIR, 'audit-webhooks.tsx'), docBlock('### React', 'tsx'));
  writeFileSync(
    join(DIR, 'react-main.tsx'),
    `import { createRoot } from 'react-dom/client';
import { AuditWebhooks } from './audit-webhooks.js';

createRoot(document.getElementById('root')!).render(<AuditWebhooks theme="dark" />);
`,
  );
  writeFileSync(
    join(DIR, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'es2022',
        module: 'esnext',
        moduleResolution: 'bundler',
        customConditions: ['@latchkey/source'],
        jsx: 'react-jsx',
        lib: ['es2022', 'dom', 'dom.iterable'],
        types: [],
        skipLibCheck: true,
      },
      files: ['react-main.tsx'],
    }),
  );
  const tsc = spawnSync(process.execPath, [require_.resolve('typescript/bin/tsc'), '-p', DIR], {
    encoding: 'utf8',
  });
  if (tsc.status !== 0) throw new Error(`the React block does not type-check:\n${tsc.stdout}${tsc.stderr}`);
  const outfile = join(DIR, 'react.js');
  await build({
    entryPoints: [join(DIR, 'react-main.tsx')],
    bundle: true,
    format: 'esm',
    jsx: 'automatic',
    conditions: ['@latchkey/source'],
    define: { 'process.env.NODE_ENV': '"production"' },
    outfile,
    logLevel: 'error',
  });
  return outfile;
}

/** Starts the doc's Express block as the host app on `port`, Latchkey mounted in it. */
export async function startDocExpress(options: {
  port: number;
  token: string;
  hostPage: string;
  reactBundle: string;
}) {
  const { port } = options;
  const hostOrigin = `http://localhost:${port}`;
  const block = docBlock('### The server side (Express)', 'ts');
  if (!block.includes(`'${DOC_ORIGIN}'`))
    throw new Error(`the Express block no longer frames from ${DOC_ORIGIN}`);
  mkdirSync(DIR, { recursive: true });
  const file = join(DIR, 'express-host.ts');
  // The doc's origin becomes the loopback one the browser opens the host page on.
  writeFileSync(file, PRELUDE + block.replaceAll(`'${DOC_ORIGIN}'`, `'${hostOrigin}'`) + EPILOGUE);
  const tsx = pathToFileURL(require_.resolve('tsx')).href;
  const child: ChildProcess = spawn(
    process.execPath,
    ['--conditions=@latchkey/source', '--import', tsx, file],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        ADMIN_TOKEN: options.token,
        // The host page on localhost frames the portal from 127.0.0.1: one server, two origins.
        LATCHKEY_PORTAL_ORIGINS: hostOrigin,
        LATCHKEY_PUBLIC_URL: `http://127.0.0.1:${port}`,
        HOST_PAGE: options.hostPage,
        REACT_BUNDLE: options.reactBundle,
      },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  await until(() => output.includes('host app listening') || child.exitCode !== null, 'the host app', 45_000);
  if (!output.includes('host app listening'))
    throw new Error(`the doc's Express block did not start:\n${output}`);
  return {
    hostUrl: hostOrigin,
    latchkeyUrl: `http://127.0.0.1:${port}`,
    output: () => output,
    stop: () => stopExample(child, 'SIGKILL'),
  };
}
