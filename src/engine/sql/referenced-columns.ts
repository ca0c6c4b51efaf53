import type { AstNode, AstValue } from './parse-query';

/** The columns a query names, as far as its text says: every column when it selects `*`. */
export interface ReferencedColumns {
  all: boolean;
  names: Set<string>;
}

export function referencedColumns(root: AstNode): ReferencedColumns {
  const names = new Set<string>();
  let all = false;
  const visit = (value: AstValue): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    if (value.class === 'STAR') all = true;
    if (value.class === 'COLUMN_REF' && Array.isArray(value.column_names)) {
      const last = value.column_names.at(-1);
      if (typeof last === 'string') names.add(last.toLowerCase());
    }
    for (const child of Object.values(value)) visit(child);
  };
  visit(root);
  return { all, names };
}
