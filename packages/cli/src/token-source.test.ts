import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CliError, EXIT } from './exit-codes.js';
import { readTokenFile, readTokenInput } from './token-source.js';

const dir = mkdtempSync(join(tmpdir(), 'latchkey-token-source-'));

/** A stand-in terminal: a stream with raw mode, recording whether echo was off while it was read. */
const terminal = () => {
  const input = Object.assign(new PassThrough(), {
    isTTY: true,
    rawModes: [] as boolean[],
    setRawMode(mode: boolean) {
      input.rawModes.push(mode);
      return input;
    },
  });
  const output = new PassThrough();
  return { input, output, shown: () => String(output.read() ?? '') };
};

describe('readTokenFile', () => {
  it('reads one token, the newline after it dropped', () => {
    writeFileSync(join(dir, 'token'), 'lk_abc\n');
    expect(readTokenFile(join(dir, 'token'), false)).toBe('lk_abc');
  });

  it('refuses an empty file, two tokens, and stdin on a terminal (exit 2); a missing file is exit 1', () => {
    const refusal = (path: string, tty = false) => {
      try {
        readTokenFile(path, tty);
        return null;
      } catch (error) {
        return error instanceof CliError ? { code: error.exitCode, message: error.message } : error;
      }
    };
    writeFileSync(join(dir, 'empty'), '\n');
    writeFileSync(join(dir, 'two'), 'lk_a\nlk_b\n');
    expect(refusal(join(dir, 'empty'))).toEqual({
      code: EXIT.usage,
      message: `No token in ${join(dir, 'empty')}.`,
    });
    expect(refusal(join(dir, 'two'))).toMatchObject({
      code: EXIT.usage,
      message: expect.stringContaining('one token'),
    });
    expect(refusal('-', true)).toMatchObject({
      code: EXIT.usage,
      message: expect.stringContaining('not a terminal'),
    });
    expect(refusal(join(dir, 'nowhere'))).toMatchObject({
      code: EXIT.failure,
      message: expect.stringContaining('ENOENT'),
    });
  });
});

describe('readTokenInput', () => {
  it('asks on a terminal with echo off, and shows nothing of what is typed', async () => {
    const { input, output, shown } = terminal();
    const token = readTokenInput(input as unknown as NodeJS.ReadStream, output);
    input.write('lk_typo');
    input.write('\u007f\u007fpo_fixed\r');
    expect(await token).toBe('lk_typo_fixed');
    expect(input.rawModes).toEqual([true, false]);
    expect(shown()).toBe('API token (not shown): \n');
  });

  it('is cancelled by Ctrl-C', async () => {
    const { input, output } = terminal();
    const token = readTokenInput(input as unknown as NodeJS.ReadStream, output);
    input.write('lk_\u0003');
    await expect(token).rejects.toThrow('Cancelled');
    expect(input.rawModes).toEqual([true, false]);
  });

  it('reads a pipe to its end', async () => {
    const pipe = new PassThrough();
    const token = readTokenInput(pipe as unknown as NodeJS.ReadStream, new PassThrough());
    pipe.end('lk_piped\n');
    expect(await token).toBe('lk_piped');
  });
});
