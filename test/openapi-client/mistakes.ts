// What the generated client must refuse: each line below is a mistake a client developer could make,
// and the compiler has to say so (an unused @ts-expect-error fails the compilation).
import { client } from './typed-client';

export async function mistakes(token: string, workspace_id: string): Promise<void> {
  const api = client('http://localhost');
  // @ts-expect-error a query needs its SQL
  await api.call('post', '/api/v1/query', { token, body: { workspace_id } });
  // @ts-expect-error the push mode is append or overwrite
  await api.call('post', '/api/v1/workspaces/{workspace_id}/push', { token, path: { workspace_id }, body: { table: 'a.b', records: [], mode: 'upsert' } });
  // @ts-expect-error no such path
  await api.call('get', '/api/v1/nowhere', { token });
  // @ts-expect-error the path is served by GET and DELETE, not by PUT
  await api.call('put', '/api/v1/query/jobs/{job_id}', { token, path: { job_id: 'x' } });
  const job = await api.call('get', '/api/v1/query/jobs/{job_id}', { token, path: { job_id: 'x' } });
  // @ts-expect-error a job's answer has no `rows_written`
  if (job.status === 200) void job.body.rows_written;
  // @ts-expect-error roles are upper case, and OWNER cannot be given
  await api.call('post', '/api/v1/workspaces/{workspace_id}/members', { token, path: { workspace_id }, body: { email: 'a@example.test', role: 'OWNER' } });
}
