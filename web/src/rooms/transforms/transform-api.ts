import { api, unwrap } from '../../api/client';
import type { components, operations } from '../../api/schema';

type Schemas = components['schemas'];
export type Transform = Schemas['TransformWithDepsResponse'];
export type Dag = Schemas['DAGResponse'];
export type DagRun = Schemas['DagRunResponse'];
export type TransformRun = Schemas['TransformRunResponse'];
export type RunStatus = TransformRun['status'];
export type RunRequest = NonNullable<NonNullable<operations['runTransforms']['requestBody']>['content']['application/json']>;

const inWorkspace = (workspaceId: string) => ({ path: { workspace_id: workspaceId } });

export const loadTransforms = (workspaceId: string) =>
  unwrap(api.GET('/api/v1/workspaces/{workspace_id}/transforms', { params: { ...inWorkspace(workspaceId), query: { limit: 200 } } }));

export const loadDag = (workspaceId: string) => unwrap(api.GET('/api/v1/workspaces/{workspace_id}/transforms/dag', { params: inWorkspace(workspaceId) }));

export const loadDagRuns = (workspaceId: string, limit: number) =>
  unwrap(api.GET('/api/v1/workspaces/{workspace_id}/transform-runs', { params: { ...inWorkspace(workspaceId), query: { limit } } }));

export const loadDagRun = (workspaceId: string, dagRunId: string) =>
  unwrap(api.GET('/api/v1/workspaces/{workspace_id}/transform-runs/{dag_run_id}', { params: { path: { workspace_id: workspaceId, dag_run_id: dagRunId } } }));

/** Starts a run of the DAG (all, chosen, stale or from a failure); the answer comes once it ends or after a short wait. */
export const runDag = (workspaceId: string, body: RunRequest) =>
  unwrap(api.POST('/api/v1/workspaces/{workspace_id}/transforms/run', { params: inWorkspace(workspaceId), body }));

export const runInFlight = (status: string) => status === 'pending' || status === 'running';
