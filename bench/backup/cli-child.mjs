/**
 * The CLI as a user runs it, measured: the built `@latchkey/cli` (plain JavaScript, no TypeScript
 * loader) runs the arguments given, while its resident memory is sampled every 20 ms. Prints one
 * JSON line: exit code, seconds, peak RSS.
 */
import { main } from '@latchkey/cli';

let peak = process.memoryUsage.rss();
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage.rss());
}, 20);
const started = performance.now();
const code = await main(process.argv.slice(2));
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage.rss());
process.stdout.write(
  `${JSON.stringify({ code, seconds: (performance.now() - started) / 1000, peakRssMb: peak / 1_048_576 })}\n`,
);
process.exitCode = code;
