// The Spend page: summary figures, the stacked chart by day, spend per task, the rented machines' ends, and the chart's figures
// as a table for screen readers. Talks to the host only through src/shared/spendProtocol.ts; draws
// once per data message, in one animation frame.

import { SPEND_RANGES, type SpendHostMessage, type SpendViewData, type SpendWebviewMessage } from '../../shared/spendProtocol';
import { escapeHtml, renderLegend, renderSpendChart, renderSpendTable } from './chart';

interface VsCodeApi {
  postMessage(message: SpendWebviewMessage): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();
const root = document.getElementById('spend-root');
const status = document.getElementById('spend-status');

function figure(label: string, value: string): string {
  return `<div class="figure"><div class="figure-label">${escapeHtml(label)}</div><div class="figure-value">${escapeHtml(value)}</div></div>`;
}

/** The budget beside the spend, and the button that opens Set Budget… in the host. */
function budgetSection(data: SpendViewData): string {
  const { labels } = data;
  const body = data.budget.length
    ? `<ul class="budget">${data.budget.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`
    : `<p class="muted">${escapeHtml(labels.noBudget)}</p>`;
  const action = data.budget.length ? labels.editBudget : labels.setBudget;
  return `<section><h2>${escapeHtml(labels.budget)}</h2>${body}<button type="button" id="spend-budget">${escapeHtml(action)}</button></section>`;
}

/** The rented machines: when each rental ends, the time left and auto-renew with its price (left out when none). */
function rentalsSection(data: SpendViewData): string {
  const { labels } = data;
  if (data.rentals.length === 0) return '';
  const rows = data.rentals
    .map(
      (row) =>
        `<tr${row.endingSoon ? ' class="ending"' : ''}><td>${escapeHtml(row.machine)}</td><td>${escapeHtml(row.ends)}</td><td>${escapeHtml(row.timeLeft)}${row.endingSoon ? ` <strong>${escapeHtml(labels.endingSoon)}</strong>` : ''}</td><td>${escapeHtml(row.autoRenew)}</td></tr>`,
    )
    .join('');
  return `<section><h2>${escapeHtml(labels.rentals)}</h2><table class="tasks"><thead><tr><th scope="col">${escapeHtml(labels.machine)}</th><th scope="col">${escapeHtml(labels.rentalEnds)}</th><th scope="col">${escapeHtml(labels.timeLeft)}</th><th scope="col">${escapeHtml(labels.autoRenew)}</th></tr></thead><tbody>${rows}</tbody></table><p class="muted">${escapeHtml(data.rentalsNote)}</p></section>`;
}

function render(data: SpendViewData): void {
  if (!root) return;
  const { labels } = data;
  const ranges = SPEND_RANGES.map(
    (days) =>
      `<button type="button" data-days="${days}" aria-pressed="${days === data.rangeDays}"${days === data.rangeDays ? ' class="primary"' : ''}>${escapeHtml(labels.days.replace('{0}', String(days)))}</button>`,
  ).join('');
  const tasks = data.tasks.length
    ? `<table class="tasks"><thead><tr><th scope="col">${escapeHtml(labels.task)}</th><th scope="col">${escapeHtml(labels.type)}</th><th scope="col" class="num">${escapeHtml(labels.amount)}</th></tr></thead><tbody>${data.tasks
        .map((task) => `<tr><td>${escapeHtml(task.name)} <span class="muted">#${task.id}</span></td><td>${escapeHtml(task.type)}</td><td class="num">${escapeHtml(task.amount)}</td></tr>`)
        .join('')}</tbody></table>`
    : `<p class="muted">${escapeHtml(labels.empty)}</p>`;
  root.innerHTML = `
<header><h1>${escapeHtml(labels.title)} <span class="muted">${escapeHtml(data.profileLabel)}</span></h1>
<div class="toolbar">${ranges}<button type="button" id="spend-refresh">${escapeHtml(labels.refresh)}</button></div></header>
<section class="figures">${figure(labels.today, data.summary.today)}${figure(labels.week, data.summary.week)}${figure(labels.month, data.summary.month)}${figure(labels.burnRate, data.summary.burnRate)}</section>
<p class="muted">${escapeHtml(labels.todayLag)}</p>
${budgetSection(data)}
<section><h2>${escapeHtml(labels.byDay)}</h2>${renderSpendChart(data.chart)}${renderLegend(data.chart)}${renderSpendTable(data.chart, labels.byDay, labels.total)}</section>
<section><h2>${escapeHtml(labels.byTask)}</h2>${tasks}</section>
${rentalsSection(data)}
<footer class="muted">${escapeHtml(labels.asOf.replace('{0}', data.asOf))}</footer>`;
}

root?.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target.closest('button') : null;
  if (!target) return;
  if (target.id === 'spend-refresh') api.postMessage({ type: 'spend/refresh' });
  if (target.id === 'spend-budget') api.postMessage({ type: 'spend/setBudget' });
  const days = Number(target.getAttribute('data-days'));
  const range = SPEND_RANGES.find((candidate) => candidate === days);
  if (range !== undefined) api.postMessage({ type: 'spend/range', days: range });
});

window.addEventListener('message', (event: MessageEvent<SpendHostMessage>) => {
  const message = event.data;
  if (message.type === 'spend/data') {
    requestAnimationFrame(() => {
      render(message.data);
      if (status) status.textContent = '';
    });
  } else if (message.type === 'spend/loading') {
    if (status) status.textContent = '…';
  } else if (message.type === 'spend/error') {
    if (status) status.textContent = message.message;
  }
});

api.postMessage({ type: 'spend/ready' });
