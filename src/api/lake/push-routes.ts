import { Elysia, t } from 'elysia';
import type { Services } from '../../runtime/services';
import { RequestValidationError } from '../../errors/app-error';
import { parseTableName } from '../../engine/write/table-name';
import type { PushResponse, PushTarget } from '../../lake/push-service';
import { workspaceAccess } from '../plugins/workspace-access';
import { requestMeta } from '../plugins/request-context';
import { ownerRouting } from '../plugins/owner-routing';
import { operation } from '../openapi/operation';
import { UploadBody, uploadMediaTypes } from '../request-body/upload-body';
import { receiveUpload } from '../request-body/receive-upload';
import { jsonArrayMemberSpan } from '../request-body/json-array-span';
import { LargeJsonBody } from '../request-body/large-json-body';
import { parseJsonInput } from '../request-body/json-input';
import { bodyDigest, checkedPushRequest, ReadWhole, splitLargePush } from './push-body';
import { lakeModels as m, pushBody, pushUploadQuery } from './model';
import { asRequestErrors } from './write-errors';

const tags = ['Push'];
/** Its body limits are PUSH_MAX_BODY_BYTES (JSON) and PUSH_MAX_UPLOAD_BYTES (uploads) rather than the standard one (see app.ts). */
export const pushRoutePath = '/workspaces/:workspace_id/push';

/**
 * A JSON body at least this large is read by the route itself, its records on two threads (see
 * splitLargePush); a push this large commits alone in any case (see push-group.ts).
 */
export const largePushBytes = 1024 * 1024;

/** `POST /workspaces/{id}/push`: records into a lake table, created when missing, as one snapshot. */
export function pushRoutes(services: Pick<Services, 'auth' | 'workspaces' | 'push' | 'maintenance' | 'cluster' | 'logger'>) {
  return new Elysia().use(workspaceAccess(services.auth.authenticator, services.workspaces.access, ownerRouting(services))).post(
    pushRoutePath,
    async ({ membership, body, headers, query, request }) => {
      const key = headers['idempotency-key'];
      const { workspaceId } = membership;
      const keepAlive = () => requestMeta(request).keepAlive?.();
      let result: PushResponse;
      if (body instanceof UploadBody) result = await pushUpload(services, workspaceId, uploadTarget(query), body, key, keepAlive);
      else if (body instanceof LargeJsonBody) {
        keepAlive();
        result = await pushLargeJson(services, workspaceId, body.bytes, key);
      } else {
        // The JSON body has been read whole: what remains is the write, however long it takes.
        keepAlive();
        const received = requestMeta(request).body;
        result = await pushParsed(services, workspaceId, body, received instanceof Uint8Array ? received : undefined, { idempotencyKey: key });
      }
      // Not awaited: the push has committed and answers; the check (and a run it starts) follows on its own.
      void services.maintenance.afterWrite(workspaceId, [result.table], { trigger: 'after_push', lane: 'interactive' });
      return result;
    },
    {
      workspace: { permission: 'data:write', engine: true },
      params: t.Object({ workspace_id: t.String({ format: 'uuid' }) }),
      query: pushUploadQuery,
      headers: t.Object({
        'idempotency-key': t.Optional(
          t.String({ minLength: 1, maxLength: 255, description: 'A retry with the same key and body returns the first answer without writing again' }),
        ),
      }),
      body: pushBody,
      response: m.PushResponse,
      detail: operation({
        id: 'pushRecords',
        tags,
        summary: 'Push records into a table (created when missing; MEMBER and above)',
        description:
          'The body is either JSON (`PushRequest`) or the records themselves: newline-delimited JSON (`application/x-ndjson`), CSV with a header row (`text/csv`) or Parquet (`application/vnd.apache.parquet`), optionally with `Content-Encoding: gzip`; `table`, `mode` and `primary_key` are then query parameters. Either way the answer is the same.',
        errors: [403, 409, 503],
        uploads: Object.keys(uploadMediaTypes),
        runsStatements: true,
      }),
    },
  );
}

async function pushUpload(
  services: Pick<Services, 'push'>,
  workspaceId: string,
  target: PushTarget,
  body: UploadBody,
  key: string | undefined,
  received: () => void,
) {
  return asRequestErrors(
    async () => {
      // A name the push would refuse is refused before the body is read, not after.
      parseTableName(target.table);
      const upload = await receiveUpload(body, services.push.uploadFolder(), { digest: key !== undefined });
      // While the body streams, a client that stalls is cut off by the idle timeout; once it is all
      // here, writing a large file may take longer than that, and the answer must still reach the client.
      received();
      try {
        return await services.push.pushUpload(workspaceId, target, upload, key);
      } finally {
        // Moved away and removed by the write when it read the file; still here when it did not.
        services.push.discardUpload(upload);
      }
    },
    { table: ['query', 'table'], records: ['body'] },
  );
}

/**
 * A large JSON body: its records read on two threads by the write, when the body reads so;
 * otherwise read whole, as any other. A push naming a key reads it whole too: its upsert needs the
 * records as values.
 */
async function pushLargeJson(services: Pick<Services, 'push'>, workspaceId: string, bytes: Uint8Array, key: string | undefined): Promise<PushResponse> {
  const options = { idempotencyKey: key, bodyDigest: key === undefined ? undefined : bodyDigest(bytes) };
  const split = splitLargePush(bytes);
  if (split && split.target.primary_key === undefined) {
    try {
      return await asRequestErrors(() => services.push.push(workspaceId, { ...split.target, records: split.records }, options));
    } catch (error) {
      if (!(error instanceof ReadWhole)) throw error;
    }
  }
  return pushParsed(services, workspaceId, parseJsonInput(bytes), bytes, options);
}

/** A JSON body read whole: checked, its records' text found in the bytes received when there are any. */
function pushParsed(
  services: Pick<Services, 'push'>,
  workspaceId: string,
  body: unknown,
  bytes: Uint8Array | undefined,
  options: { idempotencyKey?: string; bodyDigest?: string },
): Promise<PushResponse> {
  const checked = checkedPushRequest(body);
  const recordsText = bytes && jsonArrayMemberSpan(bytes, 'records', Object.keys(checked).length);
  return asRequestErrors(() => services.push.push(workspaceId, checked, { ...options, recordsText }));
}

function uploadTarget(query: { table?: string; mode?: 'append' | 'overwrite'; primary_key?: string }): PushTarget {
  if (query.table === undefined)
    throw RequestValidationError.at(['query', 'table'], 'Field required: the table to push into, `<namespace>.<table>`', 'missing');
  const target: PushTarget = { table: query.table, ...(query.mode ? { mode: query.mode } : {}) };
  if (query.primary_key === undefined) return target;
  const key = query.primary_key.split(',').map((column) => column.trim());
  if (key.some((column) => column.length === 0 || column.length > 255)) {
    throw RequestValidationError.at(['query', 'primary_key'], 'Column names separated by commas, each of 1 to 255 characters', 'value_error');
  }
  if (new Set(key).size !== key.length) throw RequestValidationError.at(['query', 'primary_key'], 'Primary key columns must be distinct', 'value_error');
  return { ...target, primary_key: key };
}
