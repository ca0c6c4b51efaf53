import { sqlString } from './literals';

/** An element of Postgres array text: a string, NULL, or a nested array. */
export type ArrayItem = string | null | ArrayItem[];

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

function listSql(items: readonly ArrayItem[]): string {
  return `[${items.map((item) => (item === null ? 'NULL' : typeof item === 'string' ? sqlString(item) : listSql(item))).join(', ')}]`;
}

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
    const items: ArrayItem[] = [];
    this.skipSpace();
    if (this.text[this.index] === '}') {
      this.index += 1;
      return items;
    }
    for (;;) {
      const item = this.parseItem();
      if (item === undefined) return null;
      items.push(item);
      this.skipSpace();
      const separator = this.text[this.index];
      this.index += 1;
      if (separator === '}') return items;
      if (separator !== ',') return null;
    }
  }

  /** An element, or undefined when the text is malformed. */
  private parseItem(): ArrayItem | undefined {
    this.skipSpace();
    const char = this.text[this.index];
    if (char === '{') return this.parseArray() ?? undefined;
    if (char === '"') return this.parseQuoted();
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
