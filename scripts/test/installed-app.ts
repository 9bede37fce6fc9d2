/**
 * An application outside the workspace that installs the release tarballs with npm, as a user
 * would: on one driver only (`pg` or `pglite`), with no other Latchkey or driver package around. It
 * type-checks against the shipped declarations with `skipLibCheck: false`, then runs: a core on the
 * store, a project, a device, a signed push and the secret read back, all through `core.handle`.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './release-run.js';

const exec = promisify(execFile);

/** The driver an app uses, and how it type-checks (the two resolutions a user's tsconfig has). */
export type AppDriver = 'pg' | 'pglite';

const workspaceSpec = (dir: string, name: string): string => {
  const pkg = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  const spec = pkg.devDependencies[name];
  if (!spec) throw new Error(`${dir}/package.json has no devDependency ${name}`);
  return spec;
};

/** What each app adds to the Latchkey tarballs: its driver and the types packages the README names. */
const driverDependencies = (driver: AppDriver): Record<string, string> =>
  driver === 'pg'
    ? {
        pg: workspaceSpec('packages/store-postgres', 'pg'),
        '@types/pg': workspaceSpec('packages/store-postgres', '@types/pg'),
        '@types/node': workspaceSpec('.', '@types/node'),
      }
    : {
        '@electric-sql/pglite': workspaceSpec('packages/store-postgres', '@electric-sql/pglite'),
        '@types/emscripten': '^1.41.6',
        '@types/node': workspaceSpec('.', '@types/node'),
      };

// pg type-checks as Node runs ESM (node16 rules), PGlite as a bundler resolves: both resolutions
// the packages' exports maps serve.
const compilerOptions = (driver: AppDriver) => ({
  target: 'es2022',
  ...(driver === 'pg'
    ? { module: 'nodenext', moduleResolution: 'nodenext' }
    : { module: 'preserve', moduleResolution: 'bundler' }),
  strict: true,
  skipLibCheck: false,
  outDir: 'dist',
});

const OPEN_DRIVER = {
  pg: `import { pgDriver } from '@latchkey/store-postgres/pg';
const driver = await pgDriver(process.env['DATABASE_URL']!);`,
  pglite: `import { pgliteDriver } from '@latchkey/store-postgres/pglite';
const driver = await pgliteDriver();`,
};

const main = (driver: AppDriver) => `${OPEN_DRIVER[driver]}
import { createCore, generateDeviceKeyPair, generateKeyringKey, signPush } from '@latchkey/core';
import { createPostgresStore } from '@latchkey/store-postgres';

const schema = process.env['LATCHKEY_SCHEMA']!;
const token = 'lk_installed_app_admin_token_0123456789';
const store = await createPostgresStore({ driver, schema });
const core = createCore({ store, keyring: \`k1:\${generateKeyringKey()}\` });
await core.bootstrap({ organization: 'acme', user: 'admin', token });

async function send(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await core.handle({
    method,
    url: \`/api/v2/organizations/acme\${path}\`,
    headers: { authorization: \`Bearer \${token}\`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = typeof response.body === 'string' ? response.body : '';
  if (response.status >= 300) throw new Error(\`\${method} \${path}: \${response.status} \${text}\`);
  return JSON.parse(text);
}

try {
  await send('POST', '/projects', { slug: 'web' });
  await send('POST', '/projects/web/environments', { slug: 'prod' });
  const keys = generateDeviceKeyPair();
  const device = (await send('POST', '/devices', { name: 'laptop', public_key: keys.publicKey })) as { id: string };
  const push = signPush(
    { device_id: device.id, changes: [{ key: 'GREETING', value: 'hello' }] },
    { organization: 'acme', project: 'web', environment: 'prod' },
    keys.privateKey,
  );
  await send('POST', '/projects/web/environments/prod/push', push);
  console.log(JSON.stringify(await send('GET', '/projects/web/environments/prod/secrets')));
} finally {
  await driver.query(\`DROP SCHEMA IF EXISTS "\${schema}" CASCADE\`);
  await store.close();
}
`;

/** A finished step's output, for the test's messages. */
export interface AppRun {
  stdout: string;
  stderr: string;
}

/**
 * Writes the app into `dir` (outside the workspace) and installs it with npm from `tarballs`
 * (package name to .tgz path) plus the registry for third-party packages, npm's cache first.
 */
export async function installApp(
  dir: string,
  driver: AppDriver,
  tarballs: Map<string, string>,
): Promise<AppRun> {
  const latchkey = ['@latchkey/core', '@latchkey/store-postgres', '@latchkey/webhook-verifier'];
  const local = Object.fromEntries(latchkey.map((name) => [name, `file:${tarballs.get(name)}`]));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: `latchkey-${driver}-app`,
      private: true,
      type: 'module',
      dependencies: { ...local, ...driverDependencies(driver) },
      // core's own dependency on the verifier resolves to the tarball, not the registry.
      overrides: { '@latchkey/webhook-verifier': '$@latchkey/webhook-verifier' },
    }),
  );
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: compilerOptions(driver) }));
  writeFileSync(join(dir, 'main.ts'), main(driver));
  return exec(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'],
    { cwd: dir },
  );
}

/** Type-checks and compiles the app with the workspace's TypeScript, then runs it with Node. */
export async function checkAndRun(dir: string, env: Record<string, string>): Promise<AppRun> {
  await exec(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir]);
  return exec(process.execPath, [join(dir, 'dist/main.js')], { cwd: dir, env: { ...process.env, ...env } });
}
