/** Where the timeline draws each figure: the chart's size, its axes' top values and the mapping to points. */
import type { TimelineBucket } from './types.js';

/** The drawing's width and height in SVG units (it stretches to its box). */
export const W = 720;
export const H = 180;
/** Room around the plot for the axis labels. */
export const PAD = { left: 44, right: 8, top: 10, bottom: 8 };

/** A round top for an axis at or above `value` (1, 2 or 5 times a power of ten; at least 5). */
function niceMax(value: number): number {
  if (value <= 5) return 5;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((m) => m * power).find((m) => m >= value) ?? value;
}

/** The scales of a timeline: attempts on the bars' axis, the p95 latency on the line's. */
export interface TimelineScale {
  maxCount: number;
  maxLatency: number;
  /** The plot's height, between the paddings. */
  innerH: number;
  /** The width each bucket takes, and its bar's. */
  slot: number;
  barW: number;
  /** The height of a count, and of a latency. */
  y(count: number): number;
  yLatency(ms: number): number;
  /** The middle of bucket `index`. */
  xCenter(index: number): number;
}

/** The scales that fit `buckets` into the drawing. */
export function timelineScale(buckets: TimelineBucket[]): TimelineScale {
  const maxCount = niceMax(Math.max(0, ...buckets.map((b) => b.attempted)));
  const maxLatency = niceMax(Math.max(0, ...buckets.map((b) => b.latency.p95_ms)));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(1, buckets.length);
  return {
    maxCount,
    maxLatency,
    innerH,
    slot,
    barW: Math.max(1, slot * 0.7),
    y: (n) => PAD.top + innerH - (n / maxCount) * innerH,
    yLatency: (ms) => PAD.top + innerH - (ms / maxLatency) * innerH,
    xCenter: (i) => PAD.left + slot * i + slot / 2,
  };
}
