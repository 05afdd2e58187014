// The billing area: one page, where Stripe's Checkout and portal send people back.

import { h } from 'preact';
import type { Route } from '../../route';
import { BillingPage } from './billing-page';

export const billingRoutes: Route[] = [
  { pattern: '/billing', render: ({ query }) => h(BillingPage, { query }) },
];
