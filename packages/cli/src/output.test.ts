import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createOutput, formatTable, toTerminal } from './output.js';

/** An Output writing into strings. */
const capture = (json: boolean) => {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out = createOutput(
    json,
    stdout as unknown as typeof process.stdout,
    stderr as unknown as typeof process.stderr,
  );
  const text = (stream: PassThrough) => String(stream.read() ?? '');
  return { out, stdout: () => text(stdout), stderr: () => text(stderr) };
};

/** What a terminal must never receive from a server string (LF only ends our own lines). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its job.
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe('toTerminal', () => {
  it('removes escape sequences whole, and every C0, C1 and DEL character', () => {
    expect(toTerminal('\x1b]0;pwned\x07laptop')).toBe('laptop');
    expect(toTerminal('\x1b[31mred\x1b[0m')).toBe('red');
    expect(toTerminal('\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\')).toBe('click');
    expect(toTerminal('a\x07b\x7fc\x9b31md\x00e\x1bf')).toBe('abcde');
    expect(toTerminal('bell\x07')).toBe('bell');
  });

  it('turns tabs and line breaks into one space, so nothing starts a new line', () => {
    expect(toTerminal('one\r\ntwo\rthree\nfour\tfive\u2028six\u0085seven')).toBe(
      'one two three four five six seven',
    );
  });

  it('keeps printable Unicode and drops the bidirectional controls', () => {
    expect(toTerminal('Zoë’s 笔记本 🔑 é')).toBe('Zoë’s 笔记本 🔑 é');
    expect(toTerminal('invoice\u202Egpj.exe')).toBe('invoicegpj.exe');
  });
});

describe('tables and messages', () => {
  const evil = 'pwn\x1b]0;pwned\x07ed\r\ndev_fake      faked    admin  active';

  it('lists a device whose name holds an OSC title change and CR LF as one clean row', () => {
    const table = formatTable(
      ['id', 'name', 'user'],
      [
        ['dev_1', evil, 'admin'],
        ['dev_2', 'desktop', 'bob'],
      ],
    );
    const lines = table.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[2]).toMatch(/^dev_1\s+pwned dev_fake\s+faked\s+admin\s+active\s+admin$/);
    expect(table).not.toMatch(CONTROL);
  });

  it('cleans lines, warnings, warning tables and progress; --json stays exact JSON', () => {
    const human = capture(false);
    human.out.line(`Revoked device dev_1 (${evil}).`);
    human.out.table(['name'], [[evil]]);
    expect(human.stdout()).not.toMatch(CONTROL);
    human.out.warn(`server says: ${evil}`);
    human.out.warnTable(['key'], [[evil]]);
    human.out.progress(`restoring: ${evil}`);
    const stderr = human.stderr();
    expect(stderr.split('\n')).toHaveLength(6);
    expect(stderr).not.toMatch(CONTROL);
    const json = capture(true);
    json.out.result({ devices: [{ name: evil }] }, () => undefined);
    expect(JSON.parse(json.stdout())).toEqual({ devices: [{ name: evil }] });
  });
});
