import { Level } from './level';
import type { SqlNode } from './token-tree';

/** Names what a translation changed, once each, in the order first seen. */
export class RewriteLog {
  private readonly names: string[] = [];

  add(name: string): void {
    if (!this.names.includes(name)) this.names.push(name);
  }

  list(): string[] {
    return [...this.names];
  }
}

/** A rewrite of one bracket level; it queues edits on the level and names them in the log. */
export type LevelRewrite = (level: Level, log: RewriteLog) => void;

/**
 * Runs a rewrite on every level, innermost first, so that a rewrite copying an argument into its
 * output copies the argument's already rewritten form.
 */
export function applyEverywhere(nodes: readonly SqlNode[], rewrite: LevelRewrite, log: RewriteLog): SqlNode[] {
  const inner = nodes.map((node) => (node.type === 'group' ? { ...node, children: applyEverywhere(node.children, rewrite, log) } : node));
  const level = new Level(inner);
  rewrite(level, log);
  return level.result();
}
