import { DuckDBInstance } from '@duckdb/node-api';
const inst = await DuckDBInstance.create(':memory:');
const c = await inst.connect();
const stmts = (await Bun.stdin.text()).split(/;\n+/).filter(s=>s.trim());
for (const s of stmts) {
  try { const r = await c.runAndReadAll(s); console.log(s.trim().slice(0,80), '=>', JSON.stringify(r.columnNames()), r.columnTypes().map(String).join(','), JSON.stringify(r.getRowsJson())); }
  catch (e) { console.log(s.trim().slice(0,80), '=> ERR', String(e).split('\n')[0]); }
}
