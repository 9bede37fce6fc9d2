import { describe, expect, it } from 'vitest';
import { acceptedValue, parseTheme, themeProperties } from './portal-theme.js';
import { portalFrameUrl, portalMessage } from './portal-url.js';

const style = (values: Record<string, string>) => ({
  getPropertyValue: (name: string) => values[name] ?? '',
});

describe('the frame URL', () => {
  it('keeps the token in the fragment and puts the theme and properties in the query', () => {
    const url = portalFrameUrl(
      'https://latchkey.example/dashboard/embed#lkp_secret',
      'dark',
      style({ '--latchkey-accent': ' #7c3aed ', '--latchkey-font': 'Inter, sans-serif' }),
    );
    expect(url?.hash).toBe('#lkp_secret');
    expect(url?.search).not.toContain('lkp_secret');
    expect(url?.searchParams.get('theme')).toBe('dark');
    expect(url?.searchParams.get('css-accent')).toBe('#7c3aed');
    expect(url?.searchParams.get('css-font')).toBe('Inter, sans-serif');
    expect(url?.origin).toBe('https://latchkey.example');
  });

  it('drops an unknown theme and a property whose value is not a colour', () => {
    const url = portalFrameUrl(
      'http://127.0.0.1:3000/dashboard/embed#t',
      'neon',
      style({ '--latchkey-bg': 'url(https://evil.example/x)', '--latchkey-text': 'red; color: blue' }),
    );
    expect([...url!.searchParams.keys()]).toEqual([]);
  });

  it('refuses what is not an http(s) URL', () => {
    for (const bad of ['', 'not a url', 'javascript:alert(1)', 'data:text/html,x', '/relative#t'])
      expect(portalFrameUrl(bad, null, style({})), bad).toBeNull();
  });
});

describe('the messages', () => {
  it('knows resize (a finite height) and expired, and nothing else', () => {
    expect(portalMessage({ type: 'latchkey:resize', height: 812.2 })).toEqual({
      type: 'latchkey:resize',
      height: 813,
    });
    expect(portalMessage({ type: 'latchkey:expired', extra: 1 })).toEqual({ type: 'latchkey:expired' });
    for (const bad of [
      null,
      'latchkey:expired',
      { type: 'latchkey:resize' },
      { type: 'latchkey:resize', height: '9' },
      { type: 'latchkey:resize', height: Number.POSITIVE_INFINITY },
      { type: 'other' },
    ])
      expect(portalMessage(bad), JSON.stringify(bad)).toBeNull();
  });
});

describe('the theme the page applies', () => {
  it('applies known properties with well-formed values only', () => {
    const search = new URLSearchParams({
      'css-accent': 'oklch(55% 0.2 280)',
      'css-surface': 'expression(alert(1))',
      'css-bogus': '#fff',
      'css-text': '#112233',
    });
    expect(themeProperties(search)).toEqual([
      ['--accent', 'oklch(55% 0.2 280)'],
      ['--text', '#112233'],
    ]);
    expect(acceptedValue('font', 'Georgia, "Times New Roman", serif')).toBe(true);
    expect(acceptedValue('font', 'x; background: url(y)')).toBe(false);
    expect(parseTheme('light')).toBe('light');
    expect(parseTheme('LIGHT')).toBeNull();
  });
});
