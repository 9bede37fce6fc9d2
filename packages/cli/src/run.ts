/** The binary's entry when run from source (see `bin/latchkey.mjs`). */
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2));
