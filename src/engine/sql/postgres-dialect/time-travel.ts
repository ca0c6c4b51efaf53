import { fromItemEnders } from './clause';
import type { Level } from './level';
import { operandsOf, type Operands } from './operands';
import type { LevelRewrite } from './pass';

/** Words that end a FROM item, so a word after the timestamp that is one of them is not an alias (SAMPLE too, after one). */
const afterTableRef = new Set([...fromItemEnders, 'SAMPLE']);

/**
 * `t FOR SYSTEM_TIME AS OF <ts> [AS o]` and `t [AS] o FOR SYSTEM_TIME AS OF <ts>` become DuckLake's
 * `t [AS o] AT (TIMESTAMP => <ts>)`; DuckLake wants the alias before AT. A bare string literal is
 * read as a timestamp with time zone, as the standard syntax implies: its offset counts (a plain
 * TIMESTAMP literal drops it silently), and a time without one is UTC, the engine's time zone.
 */
export const translateTimeTravel: LevelRewrite = (level, log) => {
  for (let k = 0; k + 4 < level.size; k += 1) {
    if (!(level.is(k, 'FOR') && level.is(k + 1, 'SYSTEM_TIME') && level.is(k + 2, 'AS') && level.is(k + 3, 'OF'))) continue;
    const expressionEnd = timestampEnd(level, operandsOf(level), k + 4);
    if (expressionEnd === -1) continue;
    const single = expressionEnd === k + 4 && level.token(k + 4, 'string');
    const timestamp = `${single ? 'TIMESTAMPTZ ' : ''}${level.text(k + 4, expressionEnd)}`;
    const alias = aliasAfter(level, expressionEnd + 1);
    const clause = `AT (TIMESTAMP => ${timestamp})`;
    const done = alias ? level.replace(k, alias.end, `AS ${level.text(alias.start, alias.end)} ${clause}`) : level.replace(k, expressionEnd, clause);
    if (done) log.add('time travel: FOR SYSTEM_TIME AS OF → AT (TIMESTAMP => …)');
  }
};

/** The timestamp expression: operands joined by operators, with `AT TIME ZONE …` allowed. */
function timestampEnd(level: Level, operands: Operands, start: number): number {
  let end = operands.endOf(start);
  while (end !== -1) {
    if (level.token(end + 1, 'op') && !level.op(end + 1, '=>')) {
      const next = operands.endOf(end + 2);
      if (next === -1) return end;
      end = next;
    } else if (level.is(end + 1, 'AT') && level.is(end + 2, 'TIME') && level.is(end + 3, 'ZONE')) {
      const next = operands.endOf(end + 4);
      if (next === -1) return end;
      end = next;
    } else {
      return end;
    }
  }
  return end;
}

function aliasAfter(level: Level, k: number): { start: number; end: number } | null {
  const named = level.is(k, 'AS') ? k + 1 : k;
  const word = level.word(named);
  const isName = level.token(named, 'quoted-ident') || (word !== null && !afterTableRef.has(word));
  if (!isName) return null;
  return { start: named, end: level.group(named + 1) ? named + 1 : named };
}
