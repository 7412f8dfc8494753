// The Spend view's chart and table as markup: a stacked bar per day in plain SVG (classes pick the
// theme's chart colours in media/spend.css; no inline styles, so the page's CSP holds), and the same
// figures as a table for screen readers. Pure string building, linear in days × series; every piece
// of server text is escaped.

import type { SpendChartData } from '../../shared/spendProtocol';

const WIDTH = 720;
const HEIGHT = 240;
const LEFT = 56;
const BOTTOM = 24;
const TOP = 8;
/** The theme offers six chart colours; series beyond them reuse them with a pattern class. */
const COLOURS = 6;

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const round = (value: number): string => (Math.round(value * 10) / 10).toString();

/** The stacked bar chart; aria-hidden because the table beside it carries the same figures. */
export function renderSpendChart(data: SpendChartData): string {
  const days = data.days.length;
  const plotWidth = WIDTH - LEFT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = days > 0 ? plotWidth / days : plotWidth;
  const barWidth = Math.max(1, slot * 0.75);
  const scale = data.max > 0 ? plotHeight / data.max : 0;
  const parts: string[] = [];
  parts.push(`<svg class="spend-chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" preserveAspectRatio="none" aria-hidden="true" focusable="false">`);
  for (const tick of data.ticks) {
    const y = round(TOP + plotHeight - tick.value * scale);
    parts.push(`<line class="grid" x1="${LEFT}" x2="${WIDTH}" y1="${y}" y2="${y}"></line>`);
    parts.push(`<text class="tick" x="${LEFT - 4}" y="${y}" text-anchor="end" dominant-baseline="middle">${escapeHtml(tick.label)}</text>`);
  }
  // Running heights per day, so each series stacks on the ones before it (one pass per series).
  const stacked = new Float64Array(days);
  data.series.forEach((series, index) => {
    const colour = `s${index % COLOURS}${index >= COLOURS ? ' alt' : ''}`;
    const rects: string[] = [];
    for (let day = 0; day < days; day++) {
      const value = series.values[day] ?? 0;
      if (!(value > 0)) continue;
      const height = value * scale;
      const base = stacked[day] ?? 0;
      stacked[day] = base + height;
      const x = round(LEFT + day * slot + (slot - barWidth) / 2);
      const y = round(TOP + plotHeight - base - height);
      rects.push(`<rect x="${x}" y="${y}" width="${round(barWidth)}" height="${round(Math.max(height, 0.5))}"></rect>`);
    }
    if (rects.length > 0) parts.push(`<g class="bar ${colour}">${rects.join('')}</g>`);
  });
  const labelEvery = Math.max(1, Math.ceil(days / 12));
  for (let day = 0; day < days; day += labelEvery) {
    const x = round(LEFT + day * slot + slot / 2);
    parts.push(`<text class="tick" x="${x}" y="${HEIGHT - 6}" text-anchor="middle">${escapeHtml(data.days[day] ?? '')}</text>`);
  }
  parts.push('</svg>');
  return parts.join('');
}

/** The legend: one swatch per series, in stacking order. */
export function renderLegend(data: SpendChartData): string {
  const items = data.series.map(
    (series, index) => `<li><span class="swatch s${index % COLOURS}${index >= COLOURS ? ' alt' : ''}" aria-hidden="true"></span>${escapeHtml(series.label)}</li>`,
  );
  return `<ul class="legend">${items.join('')}</ul>`;
}

/** The same figures as a table (day × series, plus the daily total), visually hidden, read by screen readers. */
export function renderSpendTable(data: SpendChartData, caption: string, totalHeader: string): string {
  const head = data.series.map((series) => `<th scope="col">${escapeHtml(series.label)}</th>`).join('');
  const rows: string[] = [];
  for (let day = 0; day < data.days.length; day++) {
    const cells = data.series.map((series) => `<td>${escapeHtml(series.labels[day] ?? '')}</td>`).join('');
    rows.push(`<tr><th scope="row">${escapeHtml(data.days[day] ?? '')}</th>${cells}<td>${escapeHtml(data.dayTotals[day] ?? '')}</td></tr>`);
  }
  return `<table class="sr-only"><caption>${escapeHtml(caption)}</caption><thead><tr><td></td>${head}<th scope="col">${escapeHtml(totalHeader)}</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}
