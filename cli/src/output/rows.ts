import type { Output } from './output';
import { cellText, renderTable } from './table';

export type RowFormat = 'table' | 'tsv' | 'csv' | 'json' | 'ndjson';

export interface ResultColumn {
  name: string;
  type: string;
}

/**
 * Writes a result's rows page by page as they arrive, in the chosen format. A table needs every row
 * for its column widths, so it is drawn once the last page is in; the other formats stream.
 */
export class RowWriter {
  private columns: ResultColumn[] = [];
  private held: unknown[][] = [];
  private written = 0;

  constructor(
    private readonly out: Output,
    readonly format: RowFormat,
  ) {}

  static formatFor(out: Output, requested: string | undefined): RowFormat {
    if (requested) {
      if (!['table', 'tsv', 'csv', 'json', 'ndjson'].includes(requested)) throw new Error(`unknown format ${requested}`);
      return requested as RowFormat;
    }
    return out.mode === 'json' ? 'json' : out.mode === 'human' ? 'table' : 'tsv';
  }

  page(columns: ResultColumn[], rows: unknown[][]): void {
    if (this.columns.length === 0) {
      this.columns = columns;
      this.start();
    }
    if (this.format === 'table') {
      this.held.push(...rows);
      return;
    }
    for (const row of rows) this.row(row);
  }

  end(rowCount: number): void {
    if (this.format === 'table') {
      const headers = this.columns.map((column) => column.name);
      this.out.write(
        renderTable(
          headers,
          this.held.map((row) => row.map(cellText)),
          this.out.terminalWidth,
        ),
      );
      this.out.note(`(${rowCount} row${rowCount === 1 ? '' : 's'})`);
    } else if (this.format === 'json') {
      this.out.write(this.written === 0 ? ']' : '\n]');
    }
  }

  private start(): void {
    const names = this.columns.map((column) => column.name);
    if (this.format === 'csv') this.out.write(names.map(csvField).join(','));
    else if (this.format === 'tsv') this.out.write(names.join('\t'));
    else if (this.format === 'json') process.stdout.write('[');
  }

  private row(row: unknown[]): void {
    const object = () => Object.fromEntries(this.columns.map((column, index) => [column.name, row[index] ?? null]));
    switch (this.format) {
      case 'csv':
        this.out.write(
          row
            .map((value) => csvField(value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value)))
            .join(','),
        );
        break;
      case 'tsv':
        this.out.write(row.map(cellText).join('\t'));
        break;
      case 'ndjson':
        this.out.write(JSON.stringify(object()));
        break;
      case 'json':
        process.stdout.write(`${this.written === 0 ? '\n' : ',\n'}${JSON.stringify(object())}`);
        break;
      default:
        break;
    }
    this.written += 1;
  }
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
