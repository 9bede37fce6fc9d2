/**
 * The look a host may give the portal: a theme (`light` or `dark`, else the system's) and a few
 * CSS custom properties. The host sets them on `<latchkey-portal>` as `--latchkey-<name>`; the
 * element passes them in the frame's query (`?theme=dark&css-accent=%237c3aed`), and the portal
 * page applies each only when its value has the expected form, so the query can set colours and a
 * font and nothing else. One list, read by both sides.
 */

/** The properties a host may set, by name, with the portal's CSS variable each one sets. */
export const PORTAL_PROPERTIES = {
  accent: '--accent',
  'accent-text': '--accent-text',
  bg: '--bg',
  surface: '--surface',
  text: '--text',
  muted: '--muted',
  border: '--border',
  focus: '--focus',
  font: '--font',
} as const;

/** A property's name (`accent`, …). */
export type PortalProperty = keyof typeof PORTAL_PROPERTIES;

const COLOUR =
  /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,24}|(rgba?|hsla?|hwb|lab|lch|oklab|oklch)\([0-9a-zA-Z.,%\s/+-]{1,80}\))$/;
const FONT = /^[A-Za-z0-9 ,'"-]{1,120}$/;

/** Whether `value` is one the portal accepts for `name`: a colour, or for `font` a family list. */
export function acceptedValue(name: PortalProperty, value: string): boolean {
  return (name === 'font' ? FONT : COLOUR).test(value);
}

/** The theme asked for: `light`, `dark`, or null for the system's. */
export function parseTheme(value: string | null | undefined): 'light' | 'dark' | null {
  return value === 'light' || value === 'dark' ? value : null;
}

/** The query parameters for `theme` and the `--latchkey-*` properties set in `style`. */
export function themeParams(theme: string | null, style: Pick<CSSStyleDeclaration, 'getPropertyValue'>) {
  const params = new URLSearchParams();
  const chosen = parseTheme(theme);
  if (chosen) params.set('theme', chosen);
  for (const name of Object.keys(PORTAL_PROPERTIES) as PortalProperty[]) {
    const value = style.getPropertyValue(`--latchkey-${name}`).trim();
    if (value && acceptedValue(name, value)) params.set(`css-${name}`, value);
  }
  return params;
}

/** The CSS variables a page query sets (`css-<name>`), the malformed and unknown left out. */
export function themeProperties(search: URLSearchParams): [variable: string, value: string][] {
  const out: [string, string][] = [];
  for (const name of Object.keys(PORTAL_PROPERTIES) as PortalProperty[]) {
    const value = search.get(`css-${name}`)?.trim();
    if (value && acceptedValue(name, value)) out.push([PORTAL_PROPERTIES[name], value]);
  }
  return out;
}
