import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { OpenAPIV3_1 } from 'openapi-types';

const documentId = 'https://oxbow.test/openapi.json';
const methods = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const;
/** The document itself and its browsable page: served, but no operations of the interface. */
const aboutTheDocument = new Set(['/openapi.json', '/docs']);

interface PathTemplate {
  template: string;
  pattern: RegExp;
  /** Literal segments first: `/query/rate-limit` wins over `/query/{anything}`. */
  literals: number;
}

/**
 * Holds every answer of the HTTP test suite to the interface's own OpenAPI document: the status must be
 * one the operation declares, the media type one it declares for that status, the body valid against
 * its schema, and the required headers present. Anything else fails the test that caused it.
 */
export class ResponseConformance {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly templates: PathTemplate[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenAPIV3_1.Document) {
    addFormats(this.ajv);
    this.ajv.addSchema({ ...document, $id: documentId });
    this.templates = Object.keys(document.paths ?? {})
      .map((template) => ({
        template,
        pattern: new RegExp(`^${template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{[^}]+\\\}/g, '[^/]+')}$`),
        literals: template.split('/').filter((segment) => segment && !segment.startsWith('{')).length,
      }))
      .sort((a, b) => b.literals - a.literals);
  }

  /** Throws an error that says what the answer broke; resolves when it conforms. */
  async check(method: string, url: string, response: Response): Promise<void> {
    const path = new URL(url).pathname;
    if (aboutTheDocument.has(path)) return;
    const template = this.templates.find((candidate) => candidate.pattern.test(path))?.template;
    const operation = template ? this.document.paths?.[template]?.[method.toLowerCase() as (typeof methods)[number]] : undefined;
    const where = `${method} ${path} → ${response.status}`;
    if (!template || !operation) {
      // Not an operation of the interface: only the router's own refusals may answer.
      if (![404, 405].includes(response.status)) throw new Error(`${where}: no documented operation, yet not a 404 or 405`);
      return this.checkBody(where, response.clone(), `${documentId}#/components/schemas/ErrorEnvelope`);
    }
    const declared = operation.responses?.[String(response.status)] as OpenAPIV3_1.ResponseObject | undefined;
    if (!declared)
      throw new Error(
        `${where}: ${operation.operationId} does not declare status ${response.status} (it declares ${Object.keys(operation.responses ?? {}).join(', ')})`,
      );
    for (const [name, header] of Object.entries(declared.headers ?? {}) as [string, OpenAPIV3_1.HeaderObject][]) {
      const value = response.headers.get(name);
      if (header.required && value === null) throw new Error(`${where}: the required header ${name} is missing`);
      if (value !== null && (header.schema as { type?: string } | undefined)?.type === 'integer' && !/^\d+$/.test(value))
        throw new Error(`${where}: header ${name} is "${value}", not an integer`);
    }
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    if (!declared.content) {
      const text = await response.clone().text();
      if (text.length > 0) throw new Error(`${where}: declared without a body, yet has one: ${text.slice(0, 200)}`);
      return;
    }
    if (!declared.content[mediaType])
      throw new Error(`${where}: content type "${mediaType}" is not among the declared ${Object.keys(declared.content).join(', ')}`);
    if (mediaType !== 'application/json') return;
    const pointer = ['paths', template, method.toLowerCase(), 'responses', String(response.status), 'content', mediaType, 'schema']
      .map(escapePointer)
      .join('/');
    await this.checkBody(where, response.clone(), `${documentId}#/${pointer}`);
  }

  private async checkBody(where: string, response: { text(): Promise<string> }, ref: string): Promise<void> {
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`${where}: the body is not JSON: ${text.slice(0, 200)}`);
    }
    const validate = this.validatorFor(ref);
    if (!validate(body)) throw new Error(`${where}: the body breaks its schema: ${this.ajv.errorsText(validate.errors)}\n${text.slice(0, 500)}`);
  }

  private validatorFor(ref: string): ValidateFunction {
    let validate = this.validators.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.validators.set(ref, validate);
    }
    return validate;
  }
}

function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

const byDocument = new Map<string, ResponseConformance>();

/**
 * One checker per document text in a test process: every app a file starts (both backends, restarts, the
 * files sharing a process) serves the same document, and compiling its validators again for each costs
 * more than many of the requests it checks.
 */
export function conformanceTo(documentText: string): ResponseConformance {
  let conformance = byDocument.get(documentText);
  if (!conformance) {
    conformance = new ResponseConformance(JSON.parse(documentText) as OpenAPIV3_1.Document);
    byDocument.set(documentText, conformance);
  }
  return conformance;
}
