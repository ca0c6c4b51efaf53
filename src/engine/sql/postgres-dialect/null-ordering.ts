import type { LevelRewrite } from './pass';

/**
 * Postgres sorts NULLs as larger than any value: last ascending, first descending. DuckDB puts
 * them last both ways, so a descending key without its own NULLS clause gets NULLS FIRST. This holds
 * everywhere ORDER BY appears: queries, window definitions and ordered aggregates.
 */
export const translateNullOrdering: LevelRewrite = (level, log) => {
  for (let k = 0; k < level.size; k += 1) {
    if (level.is(k, 'DESC') && !level.is(k + 1, 'NULLS')) {
      // A statement starting with DESC is DuckDB's DESCRIBE, not a sort key.
      if (k === 0) continue;
      if (level.replace(k, k, `${level.text(k, k)} NULLS FIRST`)) log.add('descending sort keys: NULLS FIRST as in Postgres');
    } else if (level.is(k, 'USING') && level.op(k + 1, '<', '>')) {
      // `ORDER BY x USING >` is Postgres' spelling of a sort by the named operator.
      const descending = level.op(k + 1, '>');
      const nulls = level.is(k + 2, 'NULLS') ? '' : ' NULLS FIRST';
      if (level.replace(k, k + 1, descending ? `DESC${nulls}` : 'ASC')) log.add('ORDER BY … USING < / > → ASC / DESC');
    }
  }
};
