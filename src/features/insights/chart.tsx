// The Insights screen's plots, drawn by uPlot (~50 KB, canvas). This module is imported only by the
// Insights screen, so uPlot and its stylesheet arrive with that route and no other. Each chart is
// an image to assistive technology; its figures are in the table beside it.
import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

interface ChartSeries {
  label: string;
  values: number[];
  /** Index into the palette (light and dark variants). */
  color: number;
}

// Okabe-Ito hues, colour-blind safe, each at 3:1 or more against its theme's card background;
// the lines also differ by dash, so colour is never the only cue.
const PALETTE = {
  light: ['#0072B2', '#D55E00', '#009E73', '#A8508A'],
  dark: ['#56B4E9', '#E8762D', '#22B98A', '#D98CC0'],
} as const;
const DASHES: (number[] | undefined)[] = [undefined, [8, 4], [2, 3], [12, 3, 2, 3]];

function useDark(): boolean {
  const read = () => document.documentElement.classList.contains('dark');
  const [dark, setDark] = useState(read);
  useEffect(() => {
    const observer = new MutationObserver(() => setDark(read()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
    return () => observer.disconnect();
  }, []);
  return dark;
}

export function Chart({
  label,
  x,
  series,
  bars = false,
  timeAxis = true,
  xLabel,
}: {
  /** What the chart shows, for assistive technology (the table carries the figures). */
  label: string;
  /** Seconds since the epoch for a time axis; plain numbers otherwise. */
  x: number[];
  series: ChartSeries[];
  bars?: boolean;
  timeAxis?: boolean;
  /** Formats an x value for the axis when it is not a time. */
  xLabel?: (value: number) => string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const dark = useDark();
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const colors = dark ? PALETTE.dark : PALETTE.light;
    const ink = dark ? '#d4d4d8' : '#3f3f46';
    const grid = dark ? '#3f3f46' : '#e4e4e7';
    const axis: uPlot.Axis = {
      stroke: ink,
      grid: { stroke: grid, width: 1 },
      ticks: { stroke: grid, width: 1 },
      font: '12px system-ui, sans-serif',
    };
    const plot = new uPlot(
      {
        width: Math.max(element.clientWidth, 200),
        height: 220,
        legend: { show: false },
        cursor: { show: true, drag: { x: false, y: false } },
        scales: { x: { time: timeAxis }, y: { range: (_, __, max) => [0, Math.max(1, max * 1.1)] } },
        axes: [
          {
            ...axis,
            ...(xLabel ? { values: (_: uPlot, ticks: number[]) => ticks.map(xLabel) } : {}),
          },
          {
            ...axis,
            size: 44,
            values: (_: uPlot, ticks: number[]) => ticks.map((t) => (t % 1 ? '' : String(t))),
          },
        ],
        // The times are UTC, as the tables and the CSV say.
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1e3), 'Etc/UTC'),
        series: [
          {},
          ...series.map((s, i) => ({
            label: s.label,
            stroke: colors[s.color % colors.length],
            fill: bars ? colors[s.color % colors.length] : undefined,
            width: 2,
            dash: bars ? undefined : DASHES[i % DASHES.length],
            points: { show: !bars && x.length <= 60, size: 5 },
            ...(bars ? { paths: uPlot.paths.bars!({ size: [0.7, 40] }) } : {}),
          })),
        ],
      },
      [x, ...series.map((s) => s.values)],
      element,
    );
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(element.clientWidth, 200), height: 220 }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [x, series, bars, timeAxis, xLabel, dark]);

  return (
    <div>
      <div ref={box} role="img" aria-label={label} className="w-full" />
      <ul
        className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-700 dark:text-zinc-300"
        aria-hidden="true"
      >
        {series.map((s, i) => (
          <li key={s.label} className="flex items-center gap-1.5">
            <svg width="22" height="8" viewBox="0 0 22 8">
              <line
                x1="1"
                y1="4"
                x2="21"
                y2="4"
                strokeWidth={bars ? 6 : 2}
                className={LEGEND_STROKE[s.color % LEGEND_STROKE.length]}
                strokeDasharray={bars ? undefined : DASHES[i % DASHES.length]?.join(' ')}
              />
            </svg>
            {s.label}
          </li>
        ))}
      </ul>
    </div>
  );
}

// The palette as Tailwind stroke classes, so the legend follows the theme without JavaScript.
const LEGEND_STROKE = [
  'stroke-[#0072B2] dark:stroke-[#56B4E9]',
  'stroke-[#D55E00] dark:stroke-[#E8762D]',
  'stroke-[#009E73] dark:stroke-[#22B98A]',
  'stroke-[#A8508A] dark:stroke-[#D98CC0]',
];
