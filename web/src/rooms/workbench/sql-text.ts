import { ApiError } from '../../api/errors';

/** An identifier as SQL writes it: bare when plainly lowercase, quoted otherwise. */
export function quoteIdentifier(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

export interface SqlPosition {
  /** Offset in the text, from 0. */
  from: number;
  to: number;
  line: number;
  column: number;
}

/**
 * Where in the SQL an error of the service points: its hint says "line L, column C (character N)"
 * for syntax errors; the engine's own messages carry `LINE L:` with a caret under the place.
 */
export function errorPosition(sql: string, error: unknown): SqlPosition | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const text = `${error.message}\n${error.hint ?? ''}`;
  const character = /character (\d+)/i.exec(text);
  if (character) return positionAt(sql, Number(character[1]) - 1);
  const lineColumn = /line (\d+), column (\d+)/i.exec(text);
  if (lineColumn) return positionAt(sql, offsetOf(sql, Number(lineColumn[1]), Number(lineColumn[2])));
  const caret = /LINE (\d+): (.*)\n( *)\^/.exec(text);
  if (caret) {
    // The excerpt may start with "...": find the quoted text in the line to place the caret.
    const line = Number(caret[1]);
    const quoted = caret[2]!;
    const at = caret[3]!.length - `LINE ${line}: `.length;
    const lineText = sql.split('\n')[line - 1] ?? '';
    const excerpt = quoted.replace(/^\.\.\./, '');
    const shift = quoted.length - excerpt.length;
    const start = lineText.indexOf(excerpt.slice(0, 40));
    const column = (start >= 0 ? start : 0) + Math.max(0, at - shift) + 1;
    return positionAt(sql, offsetOf(sql, line, column));
  }
  return undefined;
}

function offsetOf(sql: string, line: number, column: number): number {
  const lines = sql.split('\n');
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i]!.length + 1;
  return offset + column - 1;
}

function positionAt(sql: string, offset: number): SqlPosition | undefined {
  if (!Number.isFinite(offset) || offset < 0) return undefined;
  const from = Math.min(offset, sql.length);
  const word = /^[\w$."]+/.exec(sql.slice(from));
  const to = Math.min(sql.length, from + Math.max(1, word?.[0].length ?? 1));
  const before = sql.slice(0, from);
  const line = before.split('\n').length;
  return { from, to, line, column: from - before.lastIndexOf('\n') };
}
