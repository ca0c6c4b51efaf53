import { describe, expect, test } from 'bun:test';
import { kindOf, labelOf, objectFromForm, objectToForm, secretMask, type JsonSchema } from '../../web/src/ui/schema-form/json-schema';
import { parameterTexts, parameterValues } from '../../web/src/rooms/sharing/parameter-values';
import type { components } from '../../web/src/api/schema';

type ParameterDefinition = components['schemas']['ParameterDefinition'];

/** A connector spec as TypeBox writes it: required fields, defaults, an enum, a secret, lists, a map, nested and repeated groups. */
const spec: JsonSchema = {
  type: 'object',
  required: ['host', 'port', 'password', 'schemas', 'ssl_mode', 'streams'],
  properties: {
    host: { type: 'string', minLength: 1 },
    port: { type: 'integer', default: 5432 },
    password: { type: 'string', writeOnly: true, default: '' },
    schemas: { type: 'array', items: { type: 'string' }, default: ['public'] },
    ssl_mode: {
      anyOf: [
        { const: 'disable', type: 'string' },
        { const: 'prefer', type: 'string' },
      ],
      default: 'prefer',
    },
    objects: { type: 'array', items: { anyOf: [{ const: 'contacts' }, { const: 'deals' }] } },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    verbose: { type: 'boolean' },
    auth_header: { type: 'object', properties: { name: { type: 'string', default: 'Authorization' }, value: { type: 'string', writeOnly: true } } },
    streams: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, cursor_field: { type: 'string' } }, required: ['name'] } },
    note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
  },
};

describe("the connection form generated from a type's JSON Schema", () => {
  test('each property gets the control its schema asks for', () => {
    const kinds = Object.fromEntries(Object.entries(spec.properties!).map(([name, property]) => [name, kindOf(property)]));
    expect(kinds).toEqual({
      host: 'text',
      port: 'integer',
      password: 'secret',
      schemas: 'lines',
      ssl_mode: 'enum',
      objects: 'choices',
      headers: 'map',
      verbose: 'boolean',
      auth_header: 'object',
      streams: 'list',
      note: 'text',
    });
    expect(labelOf('ssl_mode', {})).toBe('SSL mode');
    expect(labelOf('base_url', {})).toBe('Base URL');
    expect(labelOf('x', { title: 'Given' })).toBe('Given');
  });

  test('a new form holds the defaults; sent back, optional fields left empty are left out', () => {
    const form = objectToForm(spec, {});
    expect(form).toMatchObject({
      host: '',
      port: '5432',
      password: '',
      schemas: 'public',
      ssl_mode: 'prefer',
      objects: [],
      headers: '',
      verbose: false,
      streams: [],
    });
    form.host = 'db.example.test';
    form.headers = 'X-Team: data\nAccept: application/json';
    form.streams = [{ name: 'orders', cursor_field: '' }];
    expect(objectFromForm(spec, form)).toEqual({
      host: 'db.example.test',
      port: 5432,
      password: '',
      schemas: ['public'],
      ssl_mode: 'prefer',
      headers: { 'X-Team': 'data', Accept: 'application/json' },
      verbose: false,
      auth_header: { name: 'Authorization' },
      streams: [{ name: 'orders' }],
    });
  });

  test('a stored connection round-trips: its masked secrets go back masked (kept), its values unchanged', () => {
    const stored = {
      host: 'db',
      port: 6543,
      password: secretMask,
      schemas: ['public', 'sales'],
      ssl_mode: 'disable',
      objects: ['deals'],
      verbose: true,
      auth_header: { name: 'X-Key', value: secretMask },
      streams: [{ name: 'a', cursor_field: 'updated_at' }],
    };
    expect(objectFromForm(spec, objectToForm(spec, stored))).toEqual(stored);
  });
});

describe('parameter forms typed by the definitions', () => {
  const definitions: ParameterDefinition[] = [
    { name: 'region', type: 'enum', options: ['north', 'south'], default: 'north' },
    { name: 'min', type: 'integer' },
    { name: 'ratio', type: 'number', required: false },
    { name: 'vip', type: 'boolean', default: false },
    { name: 'since', type: 'date' },
    { name: 'at', type: 'timestamp', default: '2026-03-01T08:30:00.000Z' },
  ];

  test('fields start at the defaults; values go out typed, empty ones left out', () => {
    const texts = parameterTexts(definitions);
    expect(texts).toEqual({ region: 'north', min: '', ratio: '', vip: false, since: '', at: '2026-03-01T08:30:00' });
    expect(parameterValues(definitions, { ...texts, min: '42', ratio: '0.5', vip: true, since: '2026-02-01', at: '2026-03-02T10:15' })).toEqual({
      region: 'north',
      min: 42,
      ratio: 0.5,
      vip: true,
      since: '2026-02-01',
      at: '2026-03-02T10:15:00Z',
    });
    expect(parameterValues(definitions, texts)).toEqual({ region: 'north', vip: false, at: '2026-03-01T08:30:00Z' });
  });

  test('locking values of a link starts from none', () => {
    const texts = parameterTexts(definitions, {}, false);
    expect(texts.vip).toBe('');
    expect(parameterValues(definitions, texts)).toEqual({});
    expect(parameterValues(definitions, { ...texts, vip: 'false', region: 'south' })).toEqual({ region: 'south', vip: false });
  });
});
