/**
 * `pnpm bench:restore-line`: the commit of a restore whose content is one long line (the header,
 * widened with blanks JSON allows) sent in parts of 1 MB, as the red team sent it (120 parts
 * holding one line froze the process for 5.6 s at 1.33 GB when the reader joined the held-over
 * text with each part and searched it all again). On the memory store, in-process through
 * `core.handle`, with `restores.maxLineBytes` raised to take the largest. For each size: the
 * commit's time, its throughput (flat when the reading is linear), the longest the event loop
 * waited for a turn during the commit, and the process's peak RSS.
 *
 *   tsx bench/backup/single-line.ts [--sizes 15,30,60,120] [--write]
 */
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createCore, emptyBackupCounts } from '@latchkey/core';
import { codeVersion, machine, publishResults } from '../push/report.js';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '15,30,60,120' },
    write: { type: 'boolean', default: false },
  },
});
const sizes = args.sizes.split(',').map(Number);
const MB = 1_000_000;
const PART = MB;
const TOKEN = 'lk_bench_restore_line_admin_token_000000000';
const core = createCore({
  allowOrganizationCreation: true,
  restores: { maxLineBytes: 2 * Math.max(...sizes) * MB },
});
await core.bootstrap({ organization: 'source', user: 'admin', token: TOKEN });

async function send(method: string, url: string, body?: unknown, token = TOKEN) {
  const response = await core.handle({
    method,
    url: `/api/v2${url}`,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let text = '';
  const raw = response.body as string | AsyncIterable<string | Uint8Array> | null;
  if (typeof raw === 'string') text = raw;
  else if (raw) for await (const chunk of raw) text += typeof chunk === 'string' ? chunk : Buffer.from(chunk);
  return { status: response.status, text, json: () => JSON.parse(text) };
}

const backup = (await send('GET', '/organizations/source/backup')).text;
const header = backup.indexOf('\n');
const lines = backup.trimEnd().split('\n');
const marker = lines.findIndex((line) => JSON.parse(line).kind === 'events');
const counts: Record<string, number> = { ...emptyBackupCounts(), event: lines.length - marker - 1 };
for (const line of lines.slice(1, marker)) counts[JSON.parse(line).kind]!++;

interface Row {
  mb: number;
  parts: number;
  seconds: number;
  stallMs: number;
  rssMb: number;
}
const rows: Row[] = [];
for (const [i, size] of sizes.entries()) {
  const content = `${backup.slice(0, header - 1)}${' '.repeat(size * MB - backup.length)}}${backup.slice(header)}`;
  const manifest = {
    sha256: createHash('sha256').update(content).digest('hex'),
    bytes: Buffer.byteLength(content),
    counts,
  };
  const slug = `target-${i}`;
  const created = await send('POST', '/organizations', { slug });
  if (created.status !== 201) throw new Error(`create: ${created.text}`);
  const { token } = created.json() as { token: string };
  const begun = await send('POST', `/organizations/${slug}/restores`, { manifest }, token);
  if (begun.status !== 201) throw new Error(`begin: ${begun.text}`);
  const { id } = begun.json() as { id: string };
  let parts = 0;
  for (let at = 0; at < content.length; at += PART, parts++) {
    const sent = await send(
      'PUT',
      `/organizations/${slug}/restores/${id}/parts/${parts}`,
      { data: content.slice(at, at + PART) },
      token,
    );
    if (sent.status !== 200) throw new Error(`part ${parts}: ${sent.text}`);
  }
  // The event loop's turns while the commit runs: the longest wait is how long other requests would.
  let last = performance.now();
  let stall = 0;
  let committing = true;
  let peak = process.memoryUsage.rss();
  const turn = () => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
    peak = Math.max(peak, process.memoryUsage.rss());
    if (committing) setImmediate(turn);
  };
  setImmediate(turn);
  const started = performance.now();
  const committed = await send('POST', `/organizations/${slug}/restores/${id}/commit`, undefined, token);
  const seconds = (performance.now() - started) / 1000;
  committing = false;
  // The wait until the commit ended counts too: a commit that never yields gets no turn at all.
  stall = Math.max(stall, performance.now() - last);
  if (committed.status !== 200) throw new Error(`commit: ${committed.text}`);
  rows.push({ mb: size, parts, seconds, stallMs: stall, rssMb: peak / 2 ** 20 });
  process.stderr.write(`${size} MB: ${seconds.toFixed(2)} s\n`);
}

const table = [
  '| content MB | parts of 1 MB | commit seconds | MB/s | longest event-loop wait ms | peak RSS MB |',
  '| ---------: | ------------: | -------------: | ---: | -------------------------: | ----------: |',
  ...rows.map(
    (r) =>
      `| ${r.mb} | ${r.parts} | ${r.seconds.toFixed(2)} | ${Math.round(r.mb / r.seconds)} | ${Math.round(r.stallMs)} | ${Math.round(r.rssMb)} |`,
  ),
].join('\n');
const block = `Date: ${new Date().toISOString().slice(0, 10)}. Machine: ${machine()}. Code: ${codeVersion()}.

\`pnpm bench:restore-line\`: the commit of a restore whose content is one line (the header widened with blanks), sent in parts of 1 MB, on the memory store through \`core.handle\` (\`restores.maxLineBytes\` raised to take it). The commit reads the content twice (check, then write); each pass searches every part once for a newline and holds the line as a list of parts until it ends, so the time grows with the size, not its square, and the event loop gets a turn after every part.

${table}`;
publishResults(block, { id: 'restore-line', heading: 'Restore of one long line' }, args.write);
