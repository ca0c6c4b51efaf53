import { CliError } from '../exit-codes';
import { ProgressLine } from './progress';
import { cellText, renderTable } from './table';

/** How a command prints: for people on a terminal, plain lines for pipes, or JSON (`--json`). */
export type OutputMode = 'human' | 'plain' | 'json';

export interface Column {
  key: string;
  header: string;
}

/**
 * Everything a command prints goes through here. Data goes to standard output; notes, progress and
 * errors to standard error, so that `oxbow … > file` or `| jq` get the data alone.
 */
export class Output {
  constructor(
    readonly mode: OutputMode,
    private readonly stdout: NodeJS.WriteStream = process.stdout,
    private readonly stderr: NodeJS.WriteStream = process.stderr,
  ) {}

  static for(options: { json?: boolean }): Output {
    return new Output(options.json ? 'json' : process.stdout.isTTY ? 'human' : 'plain');
  }

  get terminalWidth(): number {
    return this.stdout.columns || Number(process.env.COLUMNS) || 80;
  }

  write(text: string): void {
    this.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  json(value: unknown): void {
    this.write(JSON.stringify(value, null, 2));
  }

  /** A list: an aligned table for people, tab-separated lines without a header for pipes, JSON as given. */
  list(columns: Column[], rows: readonly object[], jsonValue: unknown = rows): void {
    if (this.mode === 'json') return this.json(jsonValue);
    const cells = rows.map((row) => columns.map((column) => cellText((row as Record<string, unknown>)[column.key])));
    if (this.mode === 'plain') {
      for (const line of cells) this.write(line.join('\t'));
      return;
    }
    if (rows.length === 0) return this.note('(none)');
    this.write(
      renderTable(
        columns.map((column) => column.header),
        cells,
        this.terminalWidth,
      ),
    );
  }

  /** One record: `label  value` lines for people, `key<TAB>value` for pipes, JSON as given. */
  record(fields: [label: string, key: string, value: unknown][], jsonValue: unknown): void {
    if (this.mode === 'json') return this.json(jsonValue);
    const width = Math.max(...fields.map(([label]) => label.length));
    for (const [label, key, value] of fields) this.write(this.mode === 'plain' ? `${key}\t${cellText(value)}` : `${label.padEnd(width)}  ${cellText(value)}`);
  }

  /** A remark for people (what happened); JSON callers read the data instead. */
  note(text: string): void {
    if (this.mode !== 'json') this.stderr.write(`${text}\n`);
  }

  progress(): ProgressLine {
    return new ProgressLine(this.stderr, this.mode !== 'json' && Boolean(this.stderr.isTTY));
  }

  error(error: CliError): void {
    if (this.mode === 'json') {
      this.stderr.write(
        `${JSON.stringify({ error: { code: error.code ?? null, message: error.message, hint: error.hint ?? null, status: error.status ?? null, exit_code: error.exitCode } })}\n`,
      );
      return;
    }
    this.stderr.write(`error: ${error.message}\n`);
    if (error.hint) this.stderr.write(`hint: ${error.hint}\n`);
  }
}
