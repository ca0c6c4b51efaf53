import { isSignificant, tokenize, type Token } from './tokenizer';

/**
 * Tokens nested by brackets: a `( … )` or `[ … ]` run becomes one group node, so a rewrite looking
 * at one level sees a function's argument list or a subquery as a single operand.
 */
export type SqlNode = TokenNode | GroupNode;

export interface TokenNode {
  type: 'token';
  token: Token;
}

export interface GroupNode {
  type: 'group';
  open: '(' | '[';
  children: SqlNode[];
  /** Missing when the input ends before the bracket closes; rendering keeps it missing. */
  closed: boolean;
}

const closers = { '(': ')', '[': ']' } as const;

export function parseTree(sql: string): SqlNode[] {
  const tokens = tokenize(sql);
  let index = 0;
  const level = (closer: string | null): { nodes: SqlNode[]; closed: boolean } => {
    const nodes: SqlNode[] = [];
    while (index < tokens.length) {
      const token = tokens[index]!;
      index += 1;
      if (token.kind === 'punct' && (token.text === '(' || token.text === '[')) {
        const inner = level(closers[token.text]);
        nodes.push({ type: 'group', open: token.text, children: inner.nodes, closed: inner.closed });
      } else if (closer !== null && token.kind === 'punct' && token.text === closer) {
        return { nodes, closed: true };
      } else {
        // A stray closer at the top level stays an ordinary token.
        nodes.push({ type: 'token', token });
      }
    }
    return { nodes, closed: false };
  };
  return level(null).nodes;
}

export function render(nodes: readonly SqlNode[]): string {
  let out = '';
  for (const node of nodes) {
    if (node.type === 'token') out += node.token.text;
    else out += node.open + render(node.children) + (node.closed ? closers[node.open] : '');
  }
  return out;
}

/** Nodes for generated SQL text; positions are meaningless for generated text. */
export function fragment(sql: string): SqlNode[] {
  return parseTree(sql);
}

/**
 * `name(<nodes>, <more>)` as nodes: a call of `name` on nodes already in the statement (and already
 * rewritten), so the tree keeps its brackets for the passes that follow.
 */
export function callNodes(name: string, args: readonly SqlNode[], more = ''): SqlNode[] {
  return [...fragment(name), { type: 'group', open: '(', children: [...args, ...fragment(more)], closed: true }];
}

export function significant(node: SqlNode): boolean {
  return node.type === 'group' || isSignificant(node.token);
}

/** The keyword or identifier a node spells, upper-cased, or null when it is not a bare word. */
export function wordOf(node: SqlNode | undefined): string | null {
  if (node?.type !== 'token' || node.token.kind !== 'word') return null;
  // Every pass asks about the same words many times over: each token keeps its upper case.
  return (node.token.upper ??= node.token.text.toUpperCase());
}

export function isWord(node: SqlNode | undefined, ...words: string[]): boolean {
  const word = wordOf(node);
  return word !== null && words.includes(word);
}

export function isToken(node: SqlNode | undefined, kind: Token['kind'], ...texts: string[]): boolean {
  return node?.type === 'token' && node.token.kind === kind && (texts.length === 0 || texts.includes(node.token.text));
}

export function isGroup(node: SqlNode | undefined, open: '(' | '[' = '('): node is GroupNode {
  return node?.type === 'group' && node.open === open;
}

/** Splits a group's children at its top-level commas: the arguments of a call. */
export function splitArguments(children: readonly SqlNode[]): SqlNode[][] {
  const args: SqlNode[][] = [[]];
  for (const node of children) {
    if (isToken(node, 'punct', ',')) args.push([]);
    else args[args.length - 1]!.push(node);
  }
  return args.length === 1 && !args[0]!.some(significant) ? [] : args;
}

/** The nodes of a run that carry meaning: no whitespace, no comments. */
export function meaningful(nodes: readonly SqlNode[]): SqlNode[] {
  return nodes.filter(significant);
}

/** Renders an argument without its surrounding whitespace. */
export function renderTrimmed(nodes: readonly SqlNode[]): string {
  return render(nodes).trim();
}
