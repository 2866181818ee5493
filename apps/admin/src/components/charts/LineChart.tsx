import { useId } from 'react';

export interface ChartPoint {
  date: string;
  /** The value to plot (minor units). */
  value: number;
}

/** The SVG path of `points` scaled into a width × height box (y grows downward), with the min and max it scaled by. */
function scale(points: ChartPoint[], width: number, height: number, pad = 2) {
  const values = points.map((p) => p.value);
  const min = Math.min(...values, 0);
  const max = Math.max(...values, 0);
  const span = max - min || 1;
  const x = (i: number) => (points.length === 1 ? width / 2 : (i / (points.length - 1)) * width);
  const y = (v: number) => pad + (1 - (v - min) / span) * (height - 2 * pad);
  const line = points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ');
  return { line, zero: y(0), x, y };
}

/**
 * A line over time with its zero line, drawn as plain SVG that scales with its box. Decorative for screen readers,
 * who get `label` (what the line shows, in words) instead; the figures it plots are on the page as text too.
 */
export function LineChart({ points, label, height = 160 }: { points: ChartPoint[]; label: string; height?: number }) {
  const gradient = useId();
  const width = 600;
  if (!points.length) return null;
  const { line, zero, x } = scale(points, width, height);
  const area = `${line} L${x(points.length - 1).toFixed(1)},${zero.toFixed(1)} L${x(0).toFixed(1)},${zero.toFixed(1)} Z`;
  return (
    <svg className="line-chart" viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" role="img" aria-label={label}>
      <defs>
        <linearGradient id={gradient} x1="0" x2="0" y1="0" y2="1">
          <stop offset="0%" stopColor="var(--chart)" stopOpacity="0.25" />
          <stop offset="100%" stopColor="var(--chart)" stopOpacity="0.02" />
        </linearGradient>
      </defs>
      <path d={area} fill={`url(#${gradient})`} />
      <line x1="0" x2={width} y1={zero} y2={zero} stroke="var(--border)" strokeDasharray="4 4" vectorEffect="non-scaling-stroke" />
      <path d={line} fill="none" stroke="var(--chart)" strokeWidth="2" vectorEffect="non-scaling-stroke" />
    </svg>
  );
}

/** A small line without axes, for a row of a list; `label` says what it shows. */
export function Sparkline({ points, label }: { points: ChartPoint[]; label: string }) {
  const width = 120;
  const height = 32;
  if (points.length < 2) return <span className="muted">—</span>;
  const { line } = scale(points, width, height);
  const falling = points[points.length - 1].value < points[0].value;
  return (
    <svg className={`sparkline${falling ? ' falling' : ''}`} viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" role="img" aria-label={label}>
      <path d={line} fill="none" stroke="currentColor" strokeWidth="1.5" vectorEffect="non-scaling-stroke" />
    </svg>
  );
}
