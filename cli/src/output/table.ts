/** A value as one line of text: null as empty, objects as JSON, line breaks shown as `⏎`. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.replace(/\r?\n/g, '⏎').replace(/\t/g, ' ');
}

/** Characters a terminal shows for the text (an emoji or a CJK letter takes two columns). */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += Bun.stringWidth(char);
  return width;
}

function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const char of text) {
    const w = Bun.stringWidth(char);
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return `${out}…`;
}

const gap = 2;
const narrowest = 4;

/**
 * Rows as an aligned table no wider than the terminal: columns keep their natural width while they
 * fit; otherwise the widest give up room first (down to a few characters) and their cells end in `…`.
 */
export function renderTable(headers: string[], rows: string[][], terminalWidth: number): string {
  const widths = headers.map((header, index) => Math.max(displayWidth(header), ...rows.map((row) => displayWidth(row[index] ?? ''))));
  const room = Math.max(terminalWidth - gap * (headers.length - 1), narrowest * headers.length);
  while (widths.reduce((sum, width) => sum + width, 0) > room) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest]! <= narrowest) break;
    widths[widest] = widths[widest]! - 1;
  }
  const line = (cells: string[]) =>
    cells
      .map((cell, index) => {
        const text = truncate(cell, widths[index]!);
        return index === cells.length - 1 ? text : text + ' '.repeat(widths[index]! - displayWidth(text));
      })
      .join(' '.repeat(gap))
      .trimEnd();
  const rule = widths.map((width) => '─'.repeat(width)).join(' '.repeat(gap));
  return [line(headers), rule, ...rows.map(line)].join('\n');
}
