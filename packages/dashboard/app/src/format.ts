/** How times, durations and numbers read on screen. */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const short = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const integer = new Intl.NumberFormat();

export const formatTime = (iso: string) => dateTime.format(new Date(iso));
export const formatShortTime = (iso: string) => short.format(new Date(iso));
export const formatCount = (n: number) => integer.format(n);
export const formatMs = (ms: number) =>
  ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${integer.format(ms)} ms`;
export const formatRate = (percent: number, attempted: number) =>
  attempted === 0 ? '—' : `${percent.toFixed(2)}\u00a0%`;

/** "3 minutes ago", for the last delivery. */
export function formatAgo(iso: string, now = Date.now()): string {
  const seconds = Math.round((now - new Date(iso).getTime()) / 1000);
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}
