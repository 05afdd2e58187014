// A product's Spend tab: the spend report for a window, the caps it runs against, and the
// product's spend policy (editable by owners).

import { useAccount } from '../../account';
import { isOwner } from '../../session';
import { ProductFrame } from '../../ui/product-frame';
import { Await } from '../../ui/states';
import { useApi } from '../../ui/use-api';
import { CapsBlock } from './caps-block';
import { ProductPolicySection } from './product-policy';
import { SpendReportView } from './spend-report';
import type { SpendReport } from './types';
import { readDays, WindowPicker } from '../../ui/window-picker';

export function SpendPage({ slug, query }: { slug: string; query: URLSearchParams }) {
  const days = readDays(query, 3650);
  return (
    <ProductFrame slug={slug} tab="/spend" actions={<WindowPicker days={days} />}>
      {() => <SpendBody slug={slug} days={days} />}
    </ProductFrame>
  );
}

function SpendBody({ slug, days }: { slug: string; days: number }) {
  const { account } = useAccount();
  const report = useApi<SpendReport>(`/products/${encodeURIComponent(slug)}/spend?days=${days}`);
  return (
    <>
      <Await loaded={report} what="Loading spend">
        {(data) => (
          <>
            <SpendReportView report={data} />
            <CapsBlock caps={data.caps} currency={data.currency} />
          </>
        )}
      </Await>
      <ProductPolicySection slug={slug} owner={isOwner(account)} onSaved={report.reload} />
    </>
  );
}
