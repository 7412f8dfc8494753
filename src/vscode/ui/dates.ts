// Dates and times as users see them, in the display language (vscode.env.language: "下午 8:00", not
// "8:00 PM"), whatever the system locale. The one way to format a date in src/vscode: a locale-less
// toLocale*String() or Intl.DateTimeFormat fails test/unit/vscode/dateFormatting.test.ts.

import * as vscode from 'vscode';

export type DateInput = string | number | Date;

function toDate(value: DateInput): Date {
  return value instanceof Date ? value : new Date(value);
}

/** Date and time ("2026/11/26 11:08:58"); an unreadable string is shown as it came. */
export function formatDateTime(value: DateInput): string;
export function formatDateTime(value: DateInput | undefined): string | undefined;
export function formatDateTime(value: DateInput | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const date = toDate(value);
  return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString(vscode.env.language);
}

/** Time of day only ("11:08:58"), for today's events. */
export function formatTime(value: DateInput): string {
  const date = toDate(value);
  return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleTimeString(vscode.env.language);
}
