import { AppError } from '../../../errors/app-error';
import { Level, type EditSink } from './level';
import type { SqlNode } from './token-tree';
import { isSignificant } from './tokenizer';
import { addMarks } from './vocabulary-marks';

/**
 * Names what a translation changed, once each, in the order first seen. It also keeps the words and
 * operators the statement holds, including those its rewrites wrote, so that a pass with nothing to
 * look for is skipped, and the translation's budget: rewrites copy their arguments, some of them
 * more than once (regexp_instr twice, to_char once per template field), and nested calls multiply
 * the copies; the budget stops a translation that would grow far beyond its input. (The copies
 * DuckDB makes as it expands a macro are counted in macro-expansion.ts.)
 */
export class RewriteLog implements EditSink {
  private readonly names: string[] = [];
  private readonly vocabulary = new Set<string>();
  private written = 0;

  constructor(private readonly budget = Number.POSITIVE_INFINITY) {}

  wrote(characters: number, nodes: readonly SqlNode[]): void {
    this.written += characters;
    if (this.written > this.budget) throw rewriteTooLarge(this.budget);
    this.learn(nodes);
  }

  /**
   * Adds the words (upper case), quoted names, operators and parameter markers of the nodes to the vocabulary, and
   * the marks for what neighbouring tokens tell (vocabulary-marks.ts).
   */
  learn(nodes: readonly SqlNode[]): void {
    const pending = [nodes];
    for (let group = pending.pop(); group; group = pending.pop()) {
      let previous: SqlNode | undefined;
      let before: SqlNode | undefined;
      for (const node of group) {
        if (node.type === 'group') pending.push(node.children);
        else if (!isSignificant(node.token)) continue;
        else if (node.token.kind === 'word') this.vocabulary.add((node.token.upper ??= node.token.text.toUpperCase()));
        else if (node.token.kind === 'op' || node.token.kind === 'param') this.vocabulary.add(node.token.text);
        else if (node.token.kind === 'quoted-ident') this.vocabulary.add(quotedName(node.token.text));
        addMarks(this.vocabulary, node, previous, before);
        before = previous;
        previous = node;
      }
    }
    if (this.vocabulary.has("THEN'") && this.vocabulary.has('THEN#')) this.vocabulary.add("CASE'#");
  }

  mentionsAny(words: readonly string[]): boolean {
    return words.some((word) => this.vocabulary.has(word));
  }

  add(name: string): void {
    if (!this.names.includes(name)) this.names.push(name);
  }

  list(): string[] {
    return [...this.names];
  }
}

/** `"pgx_upper"` as `"PGX_UPPER`: a quoted name is kept apart from the words, which the passes look for. */
function quotedName(text: string): string {
  return `"${text.slice(1, -1).replaceAll('""', '"').toUpperCase()}`;
}

/** A rewrite of one bracket level; it queues edits on the level and names them in the log. */
export type LevelRewrite = (level: Level, log: RewriteLog) => void;

/**
 * Runs a rewrite on every level, innermost first, so that a rewrite copying an argument into its
 * output copies the argument's already rewritten form.
 */
export function applyEverywhere(nodes: readonly SqlNode[], rewrite: LevelRewrite, log: RewriteLog): SqlNode[] {
  const inner = nodes.map((node) => (node.type === 'group' ? { ...node, children: applyEverywhere(node.children, rewrite, log) } : node));
  const level = new Level(inner, log);
  rewrite(level, log);
  return level.result();
}

/** Characters the rewrites of one translation may write beyond the input's length. */
export const rewriteBudget = 1_000_000;

function rewriteTooLarge(limit: number): AppError {
  return translationTooComplex(`Translating the query to DuckDB SQL would write more than ${limit} characters`);
}

/** A translation that would grow far beyond its input (see also macro-expansion.ts). */
export function translationTooComplex(message: string): AppError {
  return new AppError('QUERY_TOO_COMPLEX', message, {
    hint: 'Nested calls that Postgres and DuckDB spell differently copy their arguments at every level: name the inner results once in a CTE.',
  });
}

/**
 * For a rule whose output grows with what a literal holds (a group per `(` of a pattern, an
 * expression per field of a template), checked before it builds that output: a literal may make
 * one rewrite alone write more than a whole translation may.
 */
export function checkRewriteSize(characters: number): void {
  if (characters > rewriteBudget) throw rewriteTooLarge(rewriteBudget);
}
