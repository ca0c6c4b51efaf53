import type { Level } from './level';
import { startsFromItem } from './clause';
import type { LevelRewrite } from './pass';
import { stringValue } from './literals';
import { meaningful, renderTrimmed, splitArguments, type SqlNode } from './token-tree';

/** A call as a rewrite rule sees it. */
export interface Call {
  /** Lower-case function name. */
  name: string;
  /** Argument texts, already rewritten, without surrounding whitespace. */
  readonly args: string[];
  argNodes: SqlNode[][];
  level: Level;
  /** Position of the name in `level`; the argument group follows at `at + 1`. */
  at: number;
  /** Whether the call is an item of a FROM list (a table function) rather than an expression. */
  inFrom: boolean;
}

export interface CallRule {
  /** What the rewrite log says when the rule applies. */
  label: string;
  /**
   * The replacement for `name(args)`, or null to leave the call alone. A rule that must also take
   * what follows the call (an alias, FILTER, OVER) returns a Replacement saying how far it reaches.
   */
  rewrite(call: Call): string | Replacement | null;
}

export interface Replacement {
  sql: string;
  /** The last position (in `call.level`) the replacement covers. */
  through: number;
}

export type CallRules = Readonly<Record<string, CallRule>>;

/** Applies the rules keyed by function name to every unqualified call at a level. */
export function rewriteCalls(rules: CallRules): LevelRewrite {
  return (level, log) => {
    for (let k = 0; k + 1 < level.size; k += 1) {
      const name = level.word(k)?.toLowerCase();
      const group = level.group(k + 1);
      if (name === undefined || !group?.closed || !Object.hasOwn(rules, name)) continue;
      // `schema.fn(…)` is someone else's function; `::numeric(10, 2)` is a type.
      if (level.punct(k - 1, '.') || level.op(k - 1, '::')) continue;
      const rule = rules[name]!;
      const argNodes = splitArguments(group.children);
      let args: string[] | undefined;
      // Rendered only when a rule reads them: a call left alone costs nothing more than its name.
      const call: Call = {
        name,
        get args() {
          return (args ??= argNodes.map(renderTrimmed));
        },
        argNodes,
        level,
        at: k,
        inFrom: startsFromItem(level, k),
      };
      const result = rule.rewrite(call);
      if (result === null) continue;
      const replacement = typeof result === 'string' ? { sql: result, through: k + 1 } : result;
      if (level.replace(k, replacement.through, replacement.sql)) log.add(rule.label);
    }
  };
}

/** A rule that only renames the function, keeping its arguments and whatever follows. */
export function rename(to: string, label: string): CallRule {
  return { label, rewrite: (call) => `${to}(${renderArgs(call)})` };
}

/** The arguments as written, inner whitespace and comments included. */
export function renderArgs(call: Call): string {
  return call.level.text(call.at + 1, call.at + 1).slice(1, -1);
}

/** The value of an argument that is a single string literal, or null. */
export function literalArgument(call: Call, index: number): string | null {
  const nodes = meaningful(call.argNodes[index] ?? []);
  const only = nodes[0];
  if (nodes.length !== 1 || only?.type !== 'token' || only.token.kind !== 'string') return null;
  return stringValue(only.token.text);
}
