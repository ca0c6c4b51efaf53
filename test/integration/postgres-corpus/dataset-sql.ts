import { dataset, type Cell, type ColumnType } from './dataset';

/** The two engines the corpus loads the dataset into. */
export type Engine = 'postgres' | 'duckdb';

const typeNames: Readonly<Record<Engine, Readonly<Record<ColumnType, string>>>> = {
  postgres: {
    integer: 'integer',
    bigint: 'bigint',
    decimal: 'numeric(12,2)',
    double: 'double precision',
    text: 'text',
    boolean: 'boolean',
    date: 'date',
    timestamp: 'timestamp',
    timestamptz: 'timestamptz',
    json: 'jsonb',
    'text[]': 'text[]',
  },
  duckdb: {
    integer: 'INTEGER',
    bigint: 'BIGINT',
    decimal: 'DECIMAL(12,2)',
    double: 'DOUBLE',
    text: 'VARCHAR',
    boolean: 'BOOLEAN',
    date: 'DATE',
    timestamp: 'TIMESTAMP',
    timestamptz: 'TIMESTAMPTZ',
    json: 'JSON',
    'text[]': 'VARCHAR[]',
  },
};

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

function literal(value: Cell, type: ColumnType, engine: Engine): string {
  if (value === null) return 'NULL';
  const sqlType = typeNames[engine][type];
  switch (type) {
    case 'integer':
    case 'bigint':
    case 'decimal':
    case 'double':
      return String(value);
    case 'boolean':
      return value ? 'TRUE' : 'FALSE';
    case 'text':
      return quote(String(value));
    case 'json':
      return `CAST(${quote(JSON.stringify(value))} AS ${sqlType})`;
    case 'text[]':
      return `CAST(ARRAY[${(value as readonly string[]).map(quote).join(', ')}] AS ${sqlType})`;
    default:
      return `CAST(${quote(String(value))} AS ${sqlType})`;
  }
}

/** CREATE TABLE and INSERT statements that load the dataset into one engine. */
export function datasetStatements(engine: Engine): string[] {
  return dataset.flatMap((table) => {
    const columns = table.columns.map(([name, type]) => `${name} ${typeNames[engine][type]}`).join(', ');
    const rows = table.rows.map((row) => `(${row.map((cell, i) => literal(cell, table.columns[i]![1], engine)).join(', ')})`);
    return [`CREATE TABLE ${table.name} (${columns})`, `INSERT INTO ${table.name} VALUES ${rows.join(',\n')}`];
  });
}
