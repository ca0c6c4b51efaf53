import { selectItems } from './figure-name';
import type { Level } from './level';
import type { RewriteLog } from './pass';
import { renderTrimmed, splitArguments } from './token-tree';

/**
 * A row value in the statement's own SELECT lists (`ROW(1, 'a')`, `(1, 2)`) reaches a Postgres
 * client as record text, `(1,a)`; DuckDB would return a struct. Rows inside the statement (compared,
 * passed on) stay structs. Runs on the statement's outermost level only.
 */
export function translateRecordOutput(level: Level, log: RewriteLog): void {
  for (let k = 0; k < level.size; k += 1) {
    if (!level.is(k, 'SELECT')) continue;
    for (const { from, to } of selectItems(level, k)) {
      const explicit = level.is(from, 'ROW') && level.group(from + 1) !== null;
      const group = level.group(explicit ? from + 1 : from);
      if (!group) continue;
      const last = explicit ? from + 1 : from;
      const fields = splitArguments(group.children).map(renderTrimmed);
      // Only a row: then nothing, or the alias the names were given.
      if ((!explicit && fields.length < 2) || (last < to && !level.is(last + 1, 'AS'))) continue;
      const text = fields.length === 0 ? "'()'" : `('(' || ${fields.map((field) => `pgx_record_field(${field})`).join(" || ',' || ")} || ')')`;
      if (level.replace(from, last, text)) log.add('row values as record text');
    }
  }
}
