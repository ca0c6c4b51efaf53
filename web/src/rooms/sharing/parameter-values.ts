import type { components } from '../../api/schema';

type ParameterDefinition = components['schemas']['ParameterDefinition'];
type ParameterValues = components['schemas']['ParameterValues'];

/** What each field holds: text as typed (a checkbox's true or false), turned into a typed value on the way out. */
export type ParameterTexts = Record<string, string | boolean>;

/** The fields' first values: those given, else each parameter's default. */
export function parameterTexts(definitions: ParameterDefinition[], values: ParameterValues = {}, withDefaults = true): ParameterTexts {
  return Object.fromEntries(
    definitions.map((definition) => {
      const value = values[definition.name] ?? (withDefaults ? definition.default : undefined);
      // Without defaults (the values a link locks) a boolean may be left unset too.
      if (definition.type === 'boolean')
        return [definition.name, value === undefined || value === null ? (withDefaults ? false : '') : value === true || value === 'true'];
      if (value === undefined || value === null) return [definition.name, ''];
      if (definition.type === 'timestamp')
        return [
          definition.name,
          String(value)
            .replace(/(:\d\d)(\.\d+)?(Z|[+-]\d\d:?\d\d)$/, '$1')
            .slice(0, 19),
        ];
      return [definition.name, String(value)];
    }),
  );
}

/**
 * The values to send: integers and numbers as numbers, booleans as booleans, a timestamp (typed
 * without a zone) in UTC; a field left empty is left out, so the parameter's default applies (or,
 * on a public link, nothing is locked).
 */
export function parameterValues(definitions: ParameterDefinition[], texts: ParameterTexts): ParameterValues {
  const values: ParameterValues = {};
  for (const definition of definitions) {
    const text = texts[definition.name];
    if (definition.type === 'boolean') {
      if (typeof text === 'boolean') values[definition.name] = text;
      else if (text === 'true' || text === 'false') values[definition.name] = text === 'true';
      continue;
    }
    if (typeof text !== 'string' || text.trim() === '') continue;
    if (definition.type === 'integer' || definition.type === 'number') values[definition.name] = Number(text);
    else if (definition.type === 'timestamp') values[definition.name] = `${text.length === 16 ? `${text}:00` : text}Z`;
    else values[definition.name] = text;
  }
  return values;
}
