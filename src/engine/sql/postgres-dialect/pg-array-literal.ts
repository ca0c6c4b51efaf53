import { inputLimits } from '../input-limits';
import { sqlString } from './literals';

/** An element of Postgres array text: a string, NULL, or a nested array. */
export type ArrayItem = string | null | ArrayItem[];

/**
 * Arrays nested deeper than a query's brackets may be are left as written: their list literal
 * would nest the translated query deeper than its input limits allow.
 */
const maxNesting = inputLimits.maxDepth;

/** Parses Postgres array text such as `{a,"b c",NULL}` or `{{1,2},{3,4}}`; null when it is not one. */
export function parseArrayText(text: string): ArrayItem[] | null {
  const parser = new ArrayTextParser(text);
  const items = parser.parseArray();
  return items !== null && parser.atEnd() ? items : null;
}

/**
 * Array text as a DuckDB list of string literals (`['a', 'b c', NULL]`), which the cast that
 * follows turns into the element type. Null when the text is not array text.
 */
export function arrayTextToList(text: string): string | null {
  const items = parseArrayText(text);
  return items === null ? null : listSql(items);
}

/** Written with a stack of its own: the text is a literal, nested as deeply as anyone likes. */
function listSql(items: readonly ArrayItem[]): string {
  const parts: string[] = ['['];
  const open: { items: readonly ArrayItem[]; next: number }[] = [{ items, next: 0 }];
  while (open.length > 0) {
    const list = open.at(-1)!;
    if (list.next === list.items.length) {
      parts.push(']');
      open.pop();
      continue;
    }
    if (list.next > 0) parts.push(', ');
    const item = list.items[list.next]!;
    list.next += 1;
    if (item === null) parts.push('NULL');
    else if (typeof item === 'string') parts.push(sqlString(item));
    else {
      parts.push('[');
      open.push({ items: item, next: 0 });
    }
  }
  return parts.join('');
}

/** A parser of array text that keeps its own stack of open arrays, however deep they nest. */
class ArrayTextParser {
  private index = 0;

  constructor(private readonly text: string) {}

  atEnd(): boolean {
    this.skipSpace();
    return this.index === this.text.length;
  }

  parseArray(): ArrayItem[] | null {
    this.skipSpace();
    if (this.text[this.index] !== '{') return null;
    this.index += 1;
    const root: ArrayItem[] = [];
    const open: ArrayItem[][] = [root];
    let expectItem = true;
    while (open.length > 0) {
      this.skipSpace();
      const current = open.at(-1)!;
      const char = this.text[this.index];
      if (char === '}' && (current.length === 0 || !expectItem)) {
        this.index += 1;
        open.pop();
        expectItem = false;
      } else if (!expectItem) {
        if (char !== ',') return null;
        this.index += 1;
        expectItem = true;
      } else if (char === '{') {
        if (open.length >= maxNesting) return null;
        this.index += 1;
        const nested: ArrayItem[] = [];
        current.push(nested);
        open.push(nested);
      } else {
        const item = char === '"' ? this.parseQuoted() : this.parseBare();
        if (item === undefined) return null;
        current.push(item);
        expectItem = false;
      }
    }
    return root;
  }

  /** An unquoted element: NULL or the text up to the next separator, or undefined when there is none. */
  private parseBare(): ArrayItem | undefined {
    const match = /^[^,{}"]+/.exec(this.text.slice(this.index));
    if (!match) return undefined;
    this.index += match[0].length;
    const value = match[0].trim();
    return value.toUpperCase() === 'NULL' ? null : value;
  }

  private parseQuoted(): string | undefined {
    let value = '';
    this.index += 1;
    while (this.index < this.text.length) {
      const char = this.text[this.index]!;
      this.index += 1;
      if (char === '"') return value;
      if (char === '\\') {
        value += this.text[this.index] ?? '';
        this.index += 1;
      } else {
        value += char;
      }
    }
    return undefined;
  }

  private skipSpace(): void {
    while (/\s/.test(this.text[this.index] ?? '')) this.index += 1;
  }
}
