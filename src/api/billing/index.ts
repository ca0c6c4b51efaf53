import { Elysia, t } from 'elysia';
import type { Services } from '../../runtime/services';
import { handledEventTypes } from '../../billing/stripe-events';
import { workspaceAccess } from '../plugins/workspace-access';
import { operation } from '../openapi/operation';
import { billingModels as m, providerEvent } from './model';

const tags = ['Billing'];
const workspaceParams = t.Object({ workspace_id: t.String({ format: 'uuid' }) });
/** Its body is taken raw (see app.ts): the signature covers the exact bytes. */
export const webhookRoutePath = '/billing/webhooks/:billing_provider';

/** Billing status, the provider's customer and portal, and the provider's webhook. */
export function billingRoutes(services: Pick<Services, 'auth' | 'workspaces' | 'billing'>) {
  const { accounts, webhooks } = services.billing;
  return new Elysia()
    .use(workspaceAccess(services.auth.authenticator, services.workspaces.access))
    .get('/workspaces/:workspace_id/billing/status', ({ membership }) => accounts.status(membership.workspaceId), {
      workspace: 'billing:read',
      params: workspaceParams,
      response: m.BillingStatusResponse,
      detail: operation({
        id: 'getBillingStatus',
        tags,
        summary: "The workspace's plan and subscription (answered also when billing is not configured)",
        errors: [403],
      }),
    })
    .post('/workspaces/:workspace_id/billing/setup', ({ membership }) => accounts.setup(membership.workspaceId), {
      workspace: 'billing:manage',
      params: workspaceParams,
      response: m.BillingSetupResponse,
      detail: operation({
        id: 'setUpBilling',
        tags,
        summary: "The workspace's customer at the billing provider, created the first time (OWNER or ADMIN)",
        errors: [403, 503],
      }),
    })
    .get('/workspaces/:workspace_id/billing/plans', ({ membership }) => accounts.plans(membership.workspaceId), {
      workspace: 'billing:read',
      params: workspaceParams,
      response: t.Array(m.PlanOffer),
      detail: operation({
        id: 'listBillingPlans',
        tags,
        summary: 'The plans, their prices and limits, the workspace’s own marked (an extension of the interface)',
        errors: [403],
      }),
    })
    .post('/workspaces/:workspace_id/billing/checkout-session', ({ membership, body }) => accounts.checkoutSession(membership.workspaceId, body.plan), {
      workspace: 'billing:manage',
      params: workspaceParams,
      body: m.CheckoutSessionRequest,
      response: m.CheckoutSessionResponse,
      detail: operation({
        id: 'createBillingCheckoutSession',
        tags,
        summary: "A session of the billing provider's checkout that subscribes the workspace to a plan (OWNER or ADMIN; an extension of the interface)",
        description:
          'The plan changes once the provider reports the subscription paid (its webhook), not when the person comes back. A plan not sold through checkout is 400; a workspace that has a subscription already is 409 (change plans in the portal).',
        errors: [400, 403, 409, 503],
      }),
    })
    .post('/workspaces/:workspace_id/billing/portal-session', ({ membership }) => accounts.portalSession(membership.workspaceId), {
      workspace: 'billing:manage',
      params: workspaceParams,
      response: m.PortalSessionResponse,
      detail: operation({
        id: 'createBillingPortalSession',
        tags,
        summary: "A session of the billing provider's portal to manage the subscription, payment methods and invoices (OWNER or ADMIN)",
        errors: [403, 503],
      }),
    })
    .post(webhookRoutePath, ({ params, body, headers }) => webhooks.receive(params.billing_provider, body as Uint8Array, headers['stripe-signature']), {
      params: t.Object({ billing_provider: t.String({ description: 'stripe' }) }),
      headers: t.Object({
        'stripe-signature': t.Optional(t.String({ description: 't=<timestamp>,v1=<HMAC-SHA256 of "<timestamp>.<body>"> with the endpoint’s signing secret' })),
      }),
      body: providerEvent,
      response: m.WebhookReceipt,
      detail: operation({
        id: 'receiveBillingWebhook',
        tags,
        summary: "The billing provider's events, verified by their signature",
        description: `Acts on ${handledEventTypes.join(', ')}; other types are acknowledged. Each event is applied once, in the order the provider created them.`,
        errors: [400, 404, 503],
      }),
    });
}
