import { renderTrimmed, significant, wordOf, type SqlNode } from './token-tree';

/**
 * Splits the single argument of a call written with keywords, such as `substring(s FROM 2 FOR 3)`
 * or `overlay(s PLACING r FROM 2)`, into its parts: `{ '': 's', FROM: '2', FOR: '3' }`. Null when a
 * keyword repeats or something other than the expected keywords separates the parts.
 */
export function keywordArguments(nodes: readonly SqlNode[], keywords: readonly string[]): Record<string, string> | null {
  const parts: Record<string, SqlNode[]> = { '': [] };
  let current = '';
  for (const node of nodes) {
    const word = wordOf(node);
    if (word !== null && keywords.includes(word) && significant(node)) {
      if (parts[word] || (parts[current]?.filter(significant).length ?? 0) === 0) return null;
      current = word;
      parts[word] = [];
    } else {
      parts[current]!.push(node);
    }
  }
  const rendered: Record<string, string> = {};
  for (const [key, value] of Object.entries(parts)) {
    if (!value.some(significant)) return null;
    rendered[key] = renderTrimmed(value);
  }
  return rendered;
}
