import type { ResultColumn } from '../../ui/results-grid';

/** Offers text as a file download (an object URL behind a link; nothing leaves the browser). */
export function saveFile(name: string, type: string, parts: BlobPart[]): void {
  const url = URL.createObjectURL(new Blob(parts, { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** RFC 4180, as the service writes it: a header row, CRLF line ends, quotes where needed. */
export function csvText(columns: ResultColumn[], rows: unknown[][]): string {
  const field = (value: unknown) => {
    if (value === null || value === undefined) return '';
    const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const lines = [columns.map((column) => field(column.name)).join(',')];
  for (const row of rows) lines.push(row.map(field).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** One JSON object per row, keyed by column name. */
export function jsonText(columns: ResultColumn[], rows: unknown[][]): string {
  return JSON.stringify(
    rows.map((row) => Object.fromEntries(columns.map((column, at) => [column.name, row[at] ?? null]))),
    null,
    2,
  );
}

export function downloadName(extension: 'csv' | 'json'): string {
  return `query-${new Date().toISOString().replace(/[:.]/g, '-').replace('Z', '')}.${extension}`;
}
