/**
 * The app's icons, drawn as inline SVG in the text's colour: never a font glyph, which a system
 * without that glyph shows as an empty box. Decorative: the word beside each icon says the same.
 */

/** The icons the app draws. */
export type IconName = 'check' | 'pause' | 'warning' | 'cross' | 'chevron' | 'chevron-open' | 'shield';

const PATHS: Record<IconName, string> = {
  check: 'M3 8.5l3.2 3.2L13 4.8',
  pause: 'M5.5 3.5v9M10.5 3.5v9',
  warning: 'M8 2.2L14.5 13.5h-13zM8 6.5v3.2M8 11.4v.4',
  cross: 'M4 4l8 8M12 4l-8 8',
  chevron: 'M6 3.5L10.5 8 6 12.5',
  'chevron-open': 'M3.5 6L8 10.5 12.5 6',
  shield: 'M8 1.8l5.2 2v4.1c0 3.2-2.2 5.4-5.2 6.4-3-1-5.2-3.2-5.2-6.4V3.8zM5.6 8.2l1.7 1.7 3.1-3.3',
};

/** An icon, 1em square, hidden from assistive technology. */
export function Icon({ name, class: className }: { name: IconName; class?: string }) {
  return (
    <svg
      class={`icon${className ? ` ${className}` : ''}`}
      viewBox="0 0 16 16"
      width="16"
      height="16"
      aria-hidden="true"
      focusable="false"
      data-icon={name}
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
