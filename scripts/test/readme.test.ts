/**
 * The README to the letter: every shell block marked `<!-- runnable: against the demo -->` runs as
 * written, with bash, from the repository's root, against a demo this test starts. The only
 * translation is where that demo lives: the README's `http://127.0.0.1:3000` and `.data/demo` are
 * this demo's own address and data directory (a free port and a temporary folder, so a demo you run
 * yourself is left alone). The CLI's configuration goes to a temporary folder too, and a `.env` the
 * blocks write in the root is put back as it was.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killGroup } from './kill-group.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MARK = '<!-- runnable: against the demo -->';

/** The shell blocks the README marks as runnable, in order. */
function runnableBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  const pattern = new RegExp(`${MARK}\\s*\\n\`\`\`(?:sh|bash)\\n([\\s\\S]*?)\\n\`\`\``, 'g');
  for (const match of markdown.matchAll(pattern)) blocks.push(match[1]!);
  return blocks;
}

describe('the README, to the letter', () => {
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-readme-'));
  const envFile = join(ROOT, '.env');
  const savedEnv = existsSync(envFile) ? readFileSync(envFile) : null;
  let demo: ChildProcess;
  let url = '';
  let output = '';

  beforeAll(async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', LATCHKEY_DEMO_DIR: join(dir, 'demo') };
    delete env['LATCHKEY_STORE'];
    delete env['LATCHKEY_BOOTSTRAP_ADMIN_TOKEN'];
    // Its own process group, so the server and receiver it starts end with it.
    demo = spawn(process.execPath, [join(ROOT, 'scripts/demo.mjs')], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the demo did not start:\n${output}`)), 60_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString('utf8');
        const found = /URL: +(http:\/\/\S+)\/api\/v2/.exec(output)?.[1];
        if (found && output.includes('Press Ctrl-C')) {
          clearTimeout(timer);
          url = found;
          resolve();
        }
      };
      demo.stdout!.on('data', read);
      demo.stderr!.on('data', read);
      demo.on('exit', (code) => reject(new Error(`the demo exited with ${code}:\n${output}`)));
    });
  }, 90_000);

  afterAll(() => {
    if (demo?.pid !== undefined) killGroup(demo.pid);
    if (savedEnv) writeFileSync(envFile, savedEnv);
    else rmSync(envFile, { force: true });
    rmSync(dir, { recursive: true, force: true });
  });

  const blocks = runnableBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'));

  it('marks at least the command-line block as runnable', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(1);
    expect(blocks.join('\n')).toContain('npx latchkey');
    expect(blocks.join('\n')).not.toMatch(/pnpm exec/);
  });

  it.each(blocks.map((block, i) => [i + 1, block] as const))(
    'runs block %i as written',
    (_, block) => {
      const script = block
        .replaceAll('http://127.0.0.1:3000', url)
        .replaceAll('.data/demo', join(dir, 'demo'));
      const env: NodeJS.ProcessEnv = { ...process.env, LATCHKEY_CONFIG_DIR: join(dir, 'cli') };
      for (const name of ['LATCHKEY_URL', 'LATCHKEY_TOKEN', 'LATCHKEY_ORG']) delete env[name];
      const run = spawnSync('bash', ['-euo', 'pipefail', '-c', script], {
        cwd: ROOT,
        env,
        encoding: 'utf8',
        timeout: 120_000,
      });
      const printed = `${run.stdout}\n${run.stderr}`;
      expect(run.status, `${printed}\n--- demo ---\n${output}`).toBe(0);
      // What the block shows a newcomer: who they are, the pushed value pulled back, its history.
      expect(printed).toMatch(/acme/);
      expect(readFileSync(envFile, 'utf8')).toContain('GREETING=hello');
      expect(printed).not.toMatch(/command not found|npm error/);
    },
    150_000,
  );
});
