import { fragment, isGroup, isToken, isWord, render, significant, wordOf, type GroupNode, type SqlNode } from './token-tree';
import type { TokenKind } from './tokenizer';

interface Edit {
  from: number;
  to: number;
  nodes: SqlNode[];
}

/**
 * One bracket level of a statement, addressed by the position among its meaningful nodes (index
 * `k` skips whitespace and comments). Rewrites queue edits over ranges of those positions; `result`
 * applies them, keeping every untouched node (and its comments) as it was.
 */
export class Level {
  private readonly positions: number[];
  private readonly edits: Edit[] = [];

  constructor(readonly nodes: readonly SqlNode[]) {
    this.positions = [];
    nodes.forEach((node, index) => {
      if (significant(node)) this.positions.push(index);
    });
  }

  get size(): number {
    return this.positions.length;
  }

  node(k: number): SqlNode | undefined {
    const index = this.positions[k];
    return index === undefined ? undefined : this.nodes[index];
  }

  word(k: number): string | null {
    return wordOf(this.node(k));
  }

  is(k: number, ...words: string[]): boolean {
    return isWord(this.node(k), ...words);
  }

  token(k: number, kind: TokenKind, ...texts: string[]): boolean {
    return isToken(this.node(k), kind, ...texts);
  }

  op(k: number, ...texts: string[]): boolean {
    return this.token(k, 'op', ...texts);
  }

  punct(k: number, text: string): boolean {
    return this.token(k, 'punct', text);
  }

  group(k: number, open: '(' | '[' = '('): GroupNode | null {
    const node = this.node(k);
    return isGroup(node, open) ? node : null;
  }

  /** The source text of positions `from..to`, with the whitespace and comments between them. */
  text(from: number, to: number): string {
    if (to < from) return '';
    return render(this.nodes.slice(this.positions[from]!, this.positions[to]! + 1));
  }

  /** Replaces positions `from..to` (inclusive). An edit overlapping an earlier one is dropped. */
  replace(from: number, to: number, replacement: string | SqlNode[]): boolean {
    if (this.edits.some((edit) => from <= edit.to && edit.from <= to)) return false;
    const nodes = typeof replacement === 'string' ? fragment(replacement) : replacement;
    this.edits.push({ from, to, nodes });
    return true;
  }

  result(): SqlNode[] {
    if (this.edits.length === 0) return [...this.nodes];
    const out = [...this.nodes];
    const sorted = [...this.edits].sort((a, b) => b.from - a.from);
    for (const edit of sorted) {
      const start = this.positions[edit.from]!;
      const end = this.positions[edit.to]!;
      out.splice(start, end - start + 1, ...edit.nodes);
    }
    return out;
  }
}
