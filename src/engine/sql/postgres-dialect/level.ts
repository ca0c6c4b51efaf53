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
 *
 * Everything here costs time linear in the level's size, whatever the input: edits are kept sorted
 * (an overlap check is a binary search), `result` copies each node once, and facts that would need
 * a scan from every position (where each CASE ends, the clause a position is in) are computed once
 * per level through `memoized`.
 */
export class Level {
  private readonly positions: number[];
  /** Sorted by position; they never overlap, so they are sorted by their ends as well. */
  private readonly edits: Edit[] = [];
  private readonly memos = new Map<object, unknown>();

  constructor(
    readonly nodes: readonly SqlNode[],
    private readonly sink?: EditSink,
  ) {
    this.positions = [];
    nodes.forEach((node, index) => {
      if (significant(node)) this.positions.push(index);
    });
  }

  /** A fact about this level computed once, the first time a rewrite asks for it. */
  memoized<T>(key: object, compute: (level: Level) => T): T {
    if (!this.memos.has(key)) this.memos.set(key, compute(this));
    return this.memos.get(key) as T;
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

  /** Whether only whitespace (no comment) separates positions `k` and `j`, as in `x ::  json`. */
  onlySpaceBetween(k: number, j: number): boolean {
    for (let index = this.positions[k]! + 1; index < this.positions[j]!; index += 1) {
      const node = this.nodes[index]!;
      if (node.type !== 'token' || node.token.kind !== 'space') return false;
    }
    return true;
  }

  /** The source text of positions `from..to`, with the whitespace and comments between them. */
  text(from: number, to: number): string {
    if (to < from) return '';
    return render(this.nodes.slice(this.positions[from]!, this.positions[to]! + 1));
  }

  /** The nodes of positions `from..to`, with the whitespace and comments between them. */
  slice(from: number, to: number): SqlNode[] {
    return to < from ? [] : this.nodes.slice(this.positions[from]!, this.positions[to]! + 1);
  }

  /** Whether positions `from..to` are free of edits: a rewrite checks this before building its text. */
  canReplace(from: number, to: number): boolean {
    const index = this.firstEditEndingFrom(from);
    return index === this.edits.length || this.edits[index]!.from > to;
  }

  /** Replaces positions `from..to` (inclusive). An edit overlapping an earlier one is dropped. */
  replace(from: number, to: number, replacement: string | SqlNode[]): boolean {
    const index = this.firstEditEndingFrom(from);
    if (index < this.edits.length && this.edits[index]!.from <= to) return false;
    const nodes = typeof replacement === 'string' ? fragment(replacement) : replacement;
    // Nodes handed over whole were already in the statement; only new text is new.
    if (typeof replacement === 'string') this.sink?.wrote(replacement.length, nodes);
    this.edits.splice(index, 0, { from, to, nodes });
    return true;
  }

  result(): SqlNode[] {
    if (this.edits.length === 0) return [...this.nodes];
    const out: SqlNode[] = [];
    let next = 0;
    for (const edit of this.edits) {
      const start = this.positions[edit.from]!;
      for (let index = next; index < start; index += 1) out.push(this.nodes[index]!);
      for (const node of edit.nodes) out.push(node);
      next = this.positions[edit.to]! + 1;
    }
    for (let index = next; index < this.nodes.length; index += 1) out.push(this.nodes[index]!);
    return out;
  }

  /** The index of the first edit whose last position is `from` or later. */
  private firstEditEndingFrom(from: number): number {
    let low = 0;
    let high = this.edits.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.edits[middle]!.to < from) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** Told of every edit's new nodes: the translation keeps its budget and its vocabulary with them. */
export interface EditSink {
  wrote(characters: number, nodes: readonly SqlNode[]): void;
}
