/**
 * The embedded page's look from its query: `?theme=light|dark` (else the system's) and the host's
 * CSS custom properties (`css-accent`, …), each applied only when its value is a colour (or, for
 * the font, a family list), through the CSSOM, so the page's style policy stays `'self'`.
 */
import { parseTheme, themeProperties } from '../../src/embed/portal-theme.js';

/** Applies the query's theme and properties to the page's root element. */
export function applyEmbedLook(search: string): void {
  const params = new URLSearchParams(search);
  const root = document.documentElement;
  const theme = parseTheme(params.get('theme'));
  if (theme) root.dataset['theme'] = theme;
  for (const [variable, value] of themeProperties(params)) root.style.setProperty(variable, value);
}
