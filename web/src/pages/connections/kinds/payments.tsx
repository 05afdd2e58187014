// `payments` (Stripe): connected with a secret or restricted key; its card replaces the key and
// keeps which stage its charges are recorded as.

import type { KindModule } from '../kind-module';
import { PaymentsForm } from './payments/payments-form';
import type { PaymentStage } from './payments/payments-form';

export const payments: KindModule = {
  kind: 'payments',
  offer: {
    render: ({ slug, onConnected }) => (
      <article aria-labelledby="connect-payments-title">
        <h2 id="connect-payments-title">Connect payments (Stripe)</h2>
        <PaymentsForm slug={slug} replacing={false} onConnected={onConnected} />
      </article>
    ),
  },
  useCard: ({ connection, onChanged }) => {
    const stage = connection.config?.default_stage;
    return {
      panels: (
        <details class="replace-key">
          <summary>Replace key</summary>
          <PaymentsForm
            slug={connection.product_slug}
            replacing
            currentStage={stage === 'converted' || stage === 'payment' ? (stage as PaymentStage) : undefined}
            onConnected={onChanged}
          />
        </details>
      ),
    };
  },
};
