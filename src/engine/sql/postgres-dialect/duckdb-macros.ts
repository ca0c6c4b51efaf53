/**
 * DuckDB's own macros (DuckDB 1.5) whose body uses a parameter more than once, with their bodies as
 * `duckdb_functions()` shows them. The translation creates none of these (DuckDB has them built in),
 * but DuckDB expands them as it expands the dialect's macros, which call some of them
 * (`array_to_string`, `split_part`), and a statement may call them nested: macro-expansion.ts counts
 * their copies too. test/integration/engine/duckdb-macros.test.ts keeps the list true to the DuckDB
 * the service runs.
 */
export const duckdbMacroDefinitions: readonly string[] = [
  `array_pop_back(arr) AS arr[:(len(arr) - 1)]`,
  `array_to_string(arr, sep) AS CASE  WHEN ((len(CAST(arr AS VARCHAR[])) = 0)) THEN ('') ELSE list_aggr(CAST(arr AS VARCHAR[]), 'string_agg', sep) END`,
  `array_to_string_comma_default(arr, sep) AS CASE  WHEN ((len(CAST(arr AS VARCHAR[])) = 0)) THEN ('') ELSE list_aggr(CAST(arr AS VARCHAR[]), 'string_agg', sep) END`,
  `fmod(x, y) AS (x - (y * floor((x / y))))`,
  `format_pg_type(logical_type, type_name) AS CASE  WHEN ((upper(logical_type) = 'FLOAT')) THEN ('float4') WHEN ((upper(logical_type) = 'DOUBLE')) THEN ('float8') WHEN ((upper(logical_type) = 'DECIMAL')) THEN ('numeric') WHEN ((upper(logical_type) = 'ENUM')) THEN (lower(type_name)) WHEN ((upper(logical_type) = 'VARCHAR')) THEN ('varchar') WHEN ((upper(logical_type) = 'BLOB')) THEN ('bytea') WHEN ((upper(logical_type) = 'TIMESTAMP')) THEN ('timestamp') WHEN ((upper(logical_type) = 'TIME')) THEN ('time') WHEN ((upper(logical_type) = 'TIMESTAMP WITH TIME ZONE')) THEN ('timestamptz') WHEN ((upper(logical_type) = 'TIME WITH TIME ZONE')) THEN ('timetz') WHEN ((upper(logical_type) = 'SMALLINT')) THEN ('int2') WHEN ((upper(logical_type) = 'INTEGER')) THEN ('int4') WHEN ((upper(logical_type) = 'BIGINT')) THEN ('int8') WHEN ((upper(logical_type) = 'BOOLEAN')) THEN ('bool') ELSE lower(logical_type) END`,
  `format_type(type_oid, typemod) AS ((SELECT format_pg_type(logical_type, type_name) FROM duckdb_types() AS t WHERE (t.type_oid = type_oid)) || CASE  WHEN ((typemod > 0)) THEN (concat('(', (typemod // 1000), ',', (typemod % 1000), ')')) ELSE '' END)`,
  `json_group_array(x) AS CAST((('[' || string_agg(CASE  WHEN ((x IS NULL)) THEN (CAST('null' AS "JSON")) ELSE to_json(x) END, ',')) || ']') AS "JSON")`,
  `json_group_object(n, v) AS CAST((('{' || string_agg(((CASE  WHEN ((n IS NULL)) THEN ("error"('json_group_object key cannot be NULL')) ELSE to_json(CAST(n AS VARCHAR)) END || ':') || CASE  WHEN ((v IS NULL)) THEN (CAST('null' AS "JSON")) ELSE to_json(v) END), ',')) || '}') AS "JSON")`,
  `json_group_structure(x) AS (json_structure(json_group_array(x)) -> 0)`,
  `map_contains_entry(map, key, value) AS contains(map_entries("map"), main.struct_pack("key" := "key", "value" := "value"))`,
  `map_to_pg_oid(type_name) AS CASE  WHEN ((type_name = 'bool')) THEN (16) WHEN ((type_name = 'int16')) THEN (21) WHEN ((type_name = 'int')) THEN (23) WHEN ((type_name = 'bigint')) THEN (20) WHEN ((type_name = 'date')) THEN (1082) WHEN ((type_name = 'time')) THEN (1083) WHEN ((type_name = 'datetime')) THEN (1114) WHEN ((type_name = 'dec')) THEN (1700) WHEN ((type_name = 'float')) THEN (700) WHEN ((type_name = 'double')) THEN (701) WHEN ((type_name = 'bpchar')) THEN (1043) WHEN ((type_name = 'binary')) THEN (17) WHEN ((type_name = 'interval')) THEN (1186) WHEN ((type_name = 'timestamptz')) THEN (1184) WHEN ((type_name = 'timestamp with time zone')) THEN (1184) WHEN ((type_name = 'timetz')) THEN (1266) WHEN ((type_name = 'time with time zone')) THEN (1266) WHEN ((type_name = 'bit')) THEN (1560) WHEN ((type_name = 'guid')) THEN (2950) ELSE NULL END`,
  `nullif(a, b) AS CASE  WHEN ((a = b)) THEN (NULL) ELSE a END`,
  `pg_get_constraintdef(constraint_oid) AS (SELECT constraint_text FROM duckdb_constraints() AS d_constraint WHERE ((d_constraint.table_oid = (constraint_oid // 1000000)) AND (d_constraint.constraint_index = (constraint_oid % 1000000)))), (constraint_oid, pretty_bool) AS pg_get_constraintdef(constraint_oid)`,
  `round_even(x, n) AS CASE  WHEN ((((abs(x) * power(10, (n + 1))) % 10) = 5)) THEN ((round((x / 2), n) * 2)) ELSE round(x, n) END`,
  `roundbankers(x, n) AS round_even(x, n)`,
  `split_part(string, delimiter, position) AS CASE  WHEN (((string IS NOT NULL) AND ("delimiter" IS NOT NULL) AND ("position" IS NOT NULL))) THEN (COALESCE(string_split(string, "delimiter")["position"], '')) ELSE NULL END`,
  `wavg(value, weight) AS weighted_avg("value", weight)`,
  `weighted_avg(value, weight) AS (sum(("value" * weight)) / sum(CASE  WHEN (("value" IS NOT NULL)) THEN (weight) ELSE 0 END))`,
];
