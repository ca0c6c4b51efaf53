import { api, unwrap } from '../../api/client';
import type { RoomProps } from '../../router/routes';
import { ErrorNotice, Loading } from '../../ui/notice';
import { Page } from '../../ui/page';
import { formatTime } from '../../ui/format';
import { useLoad } from '../../ui/use-load';

/** Where the billing portal returns to: the workspace's plan and subscription as the service now has them. */
export function BillingReturn({ params }: RoomProps) {
  const workspaceId = params.workspaceId ?? '';
  const status = useLoad(() => unwrap(api.GET('/api/v1/workspaces/{workspace_id}/billing/status', { params: { path: { workspace_id: workspaceId } } })), [workspaceId]);
  return (
    <Page title="Billing">
      {status.loading && !status.data ? <Loading /> : null}
      <ErrorNotice error={status.error} />
      {status.data ? (
        <dl class="details">
          <dt>Plan</dt>
          <dd>{status.data.plan}</dd>
          <dt>Subscription</dt>
          <dd>{status.data.status}</dd>
          <dt>Current period</dt>
          <dd>
            {formatTime(status.data.current_period_start)} to {formatTime(status.data.current_period_end)}
          </dd>
          <dt>Cancels at the period's end</dt>
          <dd>{status.data.cancel_at_period_end ? 'Yes' : 'No'}</dd>
        </dl>
      ) : null}
    </Page>
  );
}
