import type { AnalyticsDay } from '@atelier/shared';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n-runtime';

type Plot = { destroy(): void; setSize(size: { width: number; height: number }): void };

const HEIGHT = 260;

/** An axis as wide as its longest tick label (about 7 px a character at uPlot's 12 px font), no wider. */
const axisSize = (_u: unknown, values: string[] | null) => 14 + 7 * Math.max(1, ...(values ?? []).map((v) => String(v).length));

/**
 * Views (line, left axis) and sales (bars, right axis) per day. uPlot and its stylesheet are fetched
 * only when this chart mounts (the Sales tab), never with the storefront's code.
 */
export function SalesChart({ days }: { days: AnalyticsDay[] }) {
  const { t, i18n } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');

  useEffect(() => {
    let plot: Plot | undefined;
    let cancelled = false;
    let observer: ResizeObserver | undefined;
    Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')])
      .then(([{ default: UPlot }]) => {
        const target = box.current;
        if (cancelled || !target) return;
        const xs = days.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000);
        const bars = UPlot.paths.bars?.({ size: [0.6, 24] });
        // uPlot names the days in English ("Nov 22", "Time"): the page's language names them instead.
        const day = (ts: number) => new Date(ts * 1000).toLocaleDateString(i18n.language, { day: 'numeric', month: 'short', timeZone: 'UTC' });
        plot = new UPlot(
          {
            width: Math.max(target.clientWidth, 280),
            height: HEIGHT,
            tzDate: (ts: number) => UPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
            cursor: { drag: { x: false, y: false } },
            scales: {
              // Half a day either side, so the first and last days' bars are whole.
              x: { time: true, range: (_u, min, max) => [min - 43_200, max + 43_200] },
              views: { auto: true, range: (_u, _min, max) => [0, Math.max(4, max)] },
              sales: { range: (_u, _min, max) => [0, Math.max(4, max)] },
            },
            series: [
              { label: t('sales.day'), value: (_u, ts: number | null) => (ts === null ? '--' : day(ts)) },
              { label: t('sales.views'), scale: 'views', stroke: '#2f6fed', width: 2, fill: 'rgba(47, 111, 237, 0.08)', points: { show: days.length <= 31 } },
              { label: t('sales.sales'), scale: 'sales', stroke: '#1a9c5b', fill: 'rgba(26, 156, 91, 0.55)', paths: bars, points: { show: false } },
            ],
            axes: [
              { values: (_u, ticks: number[]) => ticks.map(day) },
              // Narrow axes: on a phone the plot keeps most of the width.
              { scale: 'views', label: t('sales.views'), size: axisSize, labelSize: 22, gap: 4 },
              { scale: 'sales', side: 1, label: t('sales.sales'), size: axisSize, labelSize: 22, gap: 4, grid: { show: false } },
            ],
          },
          [xs, days.map((d) => d.views), days.map((d) => d.sales)],
          target,
        );
        if (typeof ResizeObserver !== 'undefined') {
          observer = new ResizeObserver(() => plot?.setSize({ width: Math.max(target.clientWidth, 280), height: HEIGHT }));
          observer.observe(target);
        }
        setState('ready');
      })
      .catch(() => {
        if (!cancelled) setState('failed');
      });
    return () => {
      cancelled = true;
      observer?.disconnect();
      plot?.destroy();
    };
  }, [days, t, i18n.language]);

  return (
    <figure className="sales-chart" aria-label={t('sales.chart')} data-state={state}>
      <figcaption>{t('sales.chart')}</figcaption>
      {state === 'loading' && <p role="status">{t('sales.chart_loading')}</p>}
      {state === 'failed' && <p role="alert">{t('sales.chart_failed')}</p>}
      <div ref={box} className="sales-chart-plot" data-testid="sales-chart" />
    </figure>
  );
}
