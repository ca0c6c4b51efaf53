/**
 * jsonb's editing operators and functions as temporary macros over DuckDB's JSON functions (see
 * json-editing.ts for where they are called). Objects are rebuilt as text from their keys, in
 * jsonb's key order (shorter keys first, then by their bytes), with the last value of a key winning;
 * arrays from their elements. A path is spelled out by the translation, one macro call per step.
 */
/** Objects nested deeper than this keep their keys in the order they were written (a macro cannot call itself). */
const sortedDepth = 4;

/**
 * `pgx_jsonb_sorted(j)`: the value with every object's keys in jsonb's order, to `depth` levels of
 * nesting, one macro per level; each names its value once, in a one-element list's lambda, and calls
 * the level below once (an object's members and an array's elements are one list of key and value,
 * the key NULL for an element), and joins them with list_aggr (array_to_string, a macro, names its
 * list twice): DuckDB expands every call of a macro, so a level that named the next twice would
 * double the statement at each level.
 */
function sortedDefinitions(depth: number): string[] {
  const name = (level: number) => (level === depth ? 'pgx_jsonb_sorted' : `pgx_jsonb_sorted_${level}`);
  const levels = [`pgx_jsonb_sorted_0(j) AS CAST(j AS JSON)`];
  for (let level = 1; level <= depth; level += 1) {
    const [j, k, e, m, inner] = [`__j${level}`, `__k${level}`, `__e${level}`, `__m${level}`, name(level - 1)];
    levels.push(`${name(level)}(j) AS list_transform([CAST(j AS JSON)], lambda ${j}: CASE WHEN json_type(${j}) IN ('OBJECT', 'ARRAY') THEN
      json(CASE json_type(${j}) WHEN 'OBJECT' THEN '{' ELSE '[' END || coalesce(list_aggr(list_transform(
        CASE json_type(${j}) WHEN 'OBJECT' THEN list_transform(pgx_jsonb_key_order(json_keys(${j})), lambda ${k}: {'k': ${k}, 'v': pgx_jsonb_member(${j}, ${k})})
          ELSE list_transform(json_extract(${j}, '$[*]'), lambda ${e}: {'k': CAST(NULL AS VARCHAR), 'v': ${e}}) END,
        lambda ${m}: coalesce(json_quote(${m}.k) || ':', '') || CAST(${inner}(${m}.v) AS VARCHAR)), 'string_agg', ','), '') || CASE json_type(${j}) WHEN 'OBJECT' THEN '}' ELSE ']' END)
      ELSE ${j} END)[1]`);
  }
  return levels;
}

export const jsonDefinitions: readonly string[] = [
  `pgx_jsonb_member(j, k) AS json_extract(j, '$."' || replace(replace(k, '\\', '\\\\'), '"', '\\"') || '"')`,
  // jsonb orders an object's keys by length, then by their bytes.
  `pgx_jsonb_key_order(ks) AS list_transform(list_sort(list_distinct(list_transform(ks, lambda __k: lpad(CAST(strlen(__k) AS VARCHAR), 10, '0') || __k))), lambda __s: __s[11:])`,
  // The object of keys `ks`, each with its value in `b` if it has one, else in `a`.
  `pgx_jsonb_object(ks, a, b) AS json('{' || array_to_string(list_transform(pgx_jsonb_key_order(ks),
    lambda __k: json_quote(__k) || ':' || CAST(coalesce(pgx_jsonb_member(b, __k), pgx_jsonb_member(a, __k)) AS VARCHAR)), ',') || '}')`,
  `pgx_jsonb_items(j) AS CASE WHEN json_type(j) = 'ARRAY' THEN json_extract(j, '$[*]') ELSE [CAST(j AS JSON)] END`,
  `pgx_jsonb_array(items) AS json('[' || array_to_string(list_transform(items, lambda __e: CAST(__e AS VARCHAR)), ',') || ']')`,
  // jsonb || jsonb: objects merge (the right one's keys win), anything else concatenates as arrays.
  // Each macro names its JSON once (a one-element list's lambda): nested steps would copy it.
  `pgx_jsonb_concat(a, b) AS list_transform([{'a': CAST(a AS JSON), 'b': CAST(b AS JSON)}], lambda __v: CASE WHEN __v.a IS NULL OR __v.b IS NULL THEN NULL
    WHEN json_type(__v.a) = 'OBJECT' AND json_type(__v.b) = 'OBJECT' THEN pgx_jsonb_object(json_keys(__v.a) || json_keys(__v.b), __v.a, __v.b)
    ELSE pgx_jsonb_array(pgx_jsonb_items(__v.a) || pgx_jsonb_items(__v.b)) END)[1]`,
  // jsonb - text: an object without the key, an array without the string elements equal to it.
  `pgx_jsonb_delete_keys(j, ks) AS list_transform([CAST(j AS JSON)], lambda __j: CASE WHEN __j IS NULL OR ks IS NULL THEN NULL
    WHEN json_type(__j) = 'OBJECT' THEN pgx_jsonb_object(list_filter(json_keys(__j), lambda __k: NOT list_contains(ks, __k)), __j, NULL)
    WHEN json_type(__j) = 'ARRAY' THEN pgx_jsonb_array(list_filter(json_extract(__j, '$[*]'), lambda __e: json_type(__e) <> 'VARCHAR' OR NOT list_contains(ks, json_extract_string(__e, '$'))))
    ELSE error('[22023] cannot delete from scalar') END)[1]`,
  `pgx_jsonb_delete_key(j, k) AS pgx_jsonb_delete_keys(j, [k])`,
  // x - 'text' where x is not visibly jsonb: text and JSON values lose the key, anything else subtracts.
  `pgx_minus(a VARCHAR, b) AS pgx_jsonb_delete_key(CAST(a AS JSON), b), (a, b) AS a - b`,
  // jsonb - integer: an array without the element at that position (from the end when negative).
  `pgx_jsonb_index(j, i) AS CASE WHEN i < 0 THEN json_array_length(j) + i + 1 ELSE i + 1 END`,
  `pgx_jsonb_delete_index(j, i) AS list_transform([CAST(j AS JSON)], lambda __j: CASE WHEN __j IS NULL OR i IS NULL THEN NULL
    WHEN json_type(__j) = 'ARRAY' THEN pgx_jsonb_array(list_filter(json_extract(__j, '$[*]'), lambda __e, __n: __n <> pgx_jsonb_index(__j, i)))
    WHEN json_type(__j) = 'OBJECT' THEN error('[22023] cannot delete from object using integer index') ELSE error('[22023] cannot delete from scalar') END)[1]`,
  // One step of a path: an object's key or an array's position (its text an integer).
  `pgx_jsonb_position(k) AS coalesce(TRY_CAST(k AS INTEGER), error('[22P02] path element is not an integer: ' || k))`,
  `pgx_jsonb_step(j, k) AS list_transform([CAST(j AS JSON)], lambda __j: CASE json_type(__j) WHEN 'OBJECT' THEN pgx_jsonb_member(__j, k)
    WHEN 'ARRAY' THEN json_extract(__j, '$[' || (pgx_jsonb_index(__j, pgx_jsonb_position(k)) - 1) || ']') END)[1]`,
  // The value at a step replaced (or added, when missing is true and it is not there); other values are kept.
  `pgx_jsonb_put_item(items, n, v, missing) AS CASE WHEN n BETWEEN 1 AND len(items) THEN pgx_jsonb_array(list_transform(items, lambda __e, __i: CASE WHEN __i = n THEN v ELSE __e END))
    WHEN NOT missing THEN pgx_jsonb_array(items) WHEN n < 1 THEN pgx_jsonb_array([v] || items) ELSE pgx_jsonb_array(items || [v]) END`,
  `pgx_jsonb_put(j, k, v, missing) AS list_transform([{'j': CAST(j AS JSON), 'v': CAST(v AS JSON)}], lambda __a: CASE WHEN __a.j IS NULL OR __a.v IS NULL THEN NULL
    WHEN json_type(__a.j) = 'OBJECT' THEN CASE WHEN missing OR list_contains(json_keys(__a.j), k) THEN pgx_jsonb_object(json_keys(__a.j) || [k], __a.j, json_object(k, __a.v)) ELSE __a.j END
    WHEN json_type(__a.j) = 'ARRAY' THEN pgx_jsonb_put_item(json_extract(__a.j, '$[*]'), pgx_jsonb_index(__a.j, pgx_jsonb_position(k)), __a.v, missing)
    ELSE error('[22023] cannot set path in scalar') END)[1]`,
  // jsonb_insert's last step: an element put before (or after) a position, a key that is not there yet.
  `pgx_jsonb_insert_item(items, n, v) AS pgx_jsonb_array(items[1:least(greatest(n, 1), len(items) + 1) - 1] || [v] || items[least(greatest(n, 1), len(items) + 1):])`,
  `pgx_jsonb_insert(j, k, v, after) AS list_transform([{'j': CAST(j AS JSON), 'v': CAST(v AS JSON)}], lambda __a: CASE WHEN __a.j IS NULL OR __a.v IS NULL THEN NULL
    WHEN json_type(__a.j) = 'OBJECT' THEN CASE WHEN list_contains(json_keys(__a.j), k) THEN error('[22023] cannot replace existing key') ELSE pgx_jsonb_object(json_keys(__a.j) || [k], __a.j, json_object(k, __a.v)) END
    WHEN json_type(__a.j) = 'ARRAY' THEN pgx_jsonb_insert_item(json_extract(__a.j, '$[*]'), pgx_jsonb_index(__a.j, pgx_jsonb_position(k)) + CASE WHEN after THEN 1 ELSE 0 END, __a.v)
    ELSE error('[22023] cannot set path in scalar') END)[1]`,
  // The value at a last step removed.
  `pgx_jsonb_remove(j, k) AS list_transform([CAST(j AS JSON)], lambda __j: CASE json_type(__j) WHEN 'OBJECT' THEN pgx_jsonb_delete_key(__j, k)
    WHEN 'ARRAY' THEN pgx_jsonb_delete_index(__j, pgx_jsonb_position(k)) ELSE __j END)[1]`,
  // The value a path's inner steps lead to, changed: j itself when the path leads nowhere.
  `pgx_jsonb_descend(j, k, changed) AS list_transform([CAST(j AS JSON)], lambda __j: CASE WHEN pgx_jsonb_step(__j, k) IS NULL THEN __j ELSE pgx_jsonb_put(__j, k, changed, false) END)[1]`,
  // jsonb_strip_nulls: a merge patch onto nothing drops every object member whose value is null.
  `pgx_jsonb_strip_nulls(j) AS CAST(json_merge_patch('{}', j) AS JSON)`,
  // jsonb ? text: an object's key, a string element of an array, or the string itself.
  `pgx_jsonb_exists(j, k) AS list_transform([CAST(j AS JSON)], lambda __j: CASE WHEN __j IS NULL OR k IS NULL THEN NULL WHEN json_type(__j) = 'OBJECT' THEN list_contains(json_keys(__j), k)
    WHEN json_type(__j) = 'ARRAY' THEN list_contains(list_transform(list_filter(json_extract(__j, '$[*]'), lambda __e: json_type(__e) = 'VARCHAR'), lambda __e: json_extract_string(__e, '$')), k)
    WHEN json_type(__j) = 'VARCHAR' THEN json_extract_string(__j, '$') = k ELSE false END)[1]`,
  `pgx_jsonb_element_path(n) AS '$[' || CASE WHEN n < 0 THEN '#' || n ELSE CAST(n AS VARCHAR) END || ']'`,
  // j -> n on a scalar: jsonb keeps a scalar as an array of one, so its element 0 (or -1) is the scalar itself.
  `pgx_jsonb_element(j, n) AS list_transform([CAST(j AS JSON)], lambda __j: CASE WHEN json_type(__j) NOT IN ('OBJECT', 'ARRAY') AND n IN (0, -1) THEN __j WHEN json_type(__j) = 'ARRAY' THEN json_extract(__j, pgx_jsonb_element_path(n)) END)[1]`,
  `pgx_jsonb_element_text(j, n) AS list_transform([CAST(j AS JSON)], lambda __j: CASE WHEN json_type(__j) NOT IN ('OBJECT', 'ARRAY') AND n IN (0, -1) THEN json_extract_string(__j, '$') WHEN json_type(__j) = 'ARRAY' THEN json_extract_string(__j, pgx_jsonb_element_path(n)) END)[1]`,
  `pgx_jsonb_exists_any(j, ks) AS list_bool_or(list_transform(ks, lambda __k: pgx_jsonb_exists(j, __k)))`,
  `pgx_jsonb_exists_all(j, ks) AS list_bool_and(list_transform(ks, lambda __k: pgx_jsonb_exists(j, __k)))`,
  // jsonb's text: a blank after each colon and comma between members and elements, every object's keys in jsonb's order; a scalar as its text.
  `pgx_jsonb_spaced(j) AS regexp_replace(regexp_replace(json_pretty(j), ',\\n\\s*', ', ', 'g'), '\\n\\s*', '', 'g')`,
  ...sortedDefinitions(sortedDepth),
  `pgx_jsonb_text(j) AS list_transform([CAST(j AS JSON)], lambda __t: CASE WHEN json_type(__t) IN ('OBJECT', 'ARRAY') THEN pgx_jsonb_spaced(pgx_jsonb_sorted(__t)) ELSE json_extract_string(__t, '$') END)[1]`,
  // jsonb's output (::text): objects and arrays as pgx_jsonb_text, a string with its quotes.
  `pgx_jsonb_out(j) AS list_transform([CAST(j AS JSON)], lambda __o: CASE WHEN json_type(__o) IN ('OBJECT', 'ARRAY') THEN pgx_jsonb_spaced(pgx_jsonb_sorted(__o)) ELSE CAST(__o AS VARCHAR) END)[1]`,
  // jsonb_pretty opens an empty array or object on one line and closes it on the next, at the line's indentation.
  `pgx_jsonb_pretty(j) AS regexp_replace(regexp_replace(json_pretty(pgx_jsonb_sorted(j)), '(?m)^( *)([^\\n]*?)\\[\\]', '\\1\\2[\n\\1]', 'g'), '(?m)^( *)([^\\n]*?)\\{\\}', '\\1\\2{\n\\1}', 'g')`,
  // jsonb_object_keys and its kin take an object.
  `pgx_json_object(j, name) AS CASE WHEN json_type(j) = 'ARRAY' THEN error('[22023] cannot call ' || name || ' on an array')
    WHEN json_type(j) <> 'OBJECT' THEN error('[22023] cannot call ' || name || ' on a scalar') ELSE j END`,
  `pgx_json_array(j) AS CASE WHEN json_type(j) = 'OBJECT' THEN error('[22023] cannot extract elements from an object')
    WHEN json_type(j) <> 'ARRAY' THEN error('[22023] cannot extract elements from a scalar') ELSE j END`,
  `pgx_jsonb_array_length(j) AS CASE WHEN j IS NULL THEN NULL WHEN json_type(j) = 'ARRAY' THEN json_array_length(j)
    WHEN json_type(j) = 'OBJECT' THEN error('[22023] cannot get array length of a non-array') ELSE error('[22023] cannot get array length of a scalar') END`,
  // jsonb equality is by value: every node's path, kind and value, numbers as numbers, key order aside.
  `pgx_jsonb_canonical(j) AS (SELECT string_agg(fullkey || '=' || CASE WHEN type IN ('UBIGINT', 'BIGINT', 'HUGEINT', 'DOUBLE') THEN 'n' || CAST(CAST(atom AS DOUBLE) AS VARCHAR)
    WHEN atom IS NULL THEN type ELSE type || atom END, ',' ORDER BY fullkey) FROM json_tree(j))`,
  `pgx_jsonb_eq(a, b) AS pgx_jsonb_canonical(a) = pgx_jsonb_canonical(b)`,
];
