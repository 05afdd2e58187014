// Weekly cohorts: each week's customers, what they cost (CAC), and their cumulative revenue per
// customer at day 0, 7, 14, 30, 60 and 90 after acquisition, marked once it covers the CAC.

import { count, day, money, moneyOr } from '../format';
import type { ProductRow } from '../types';
import { Empty } from '../ui/states';
import { useWidgetData } from './data';
import type { Cohort, PaybackReport } from './report-types';
import { WidgetAwait } from './widget-state';

const POINT_DAYS = [0, 7, 14, 30, 60, 90];
/** Recent cohorts with customers; older ones are in the report but rarely read here. */
const SHOWN_COHORTS = 8;

export function PaybackWidget({ product }: { product: ProductRow }) {
  const loaded = useWidgetData<PaybackReport>(`/products/${encodeURIComponent(product.slug)}/payback`);
  return (
    <WidgetAwait loaded={loaded} what="Loading cohorts">
      {(report) => <CohortTable cohorts={report.cohorts} currency={product.currency} />}
    </WidgetAwait>
  );
}

function CohortTable({ cohorts, currency }: { cohorts: Cohort[]; currency: string }) {
  const shown = cohorts.filter((cohort) => cohort.customers > 0).reverse().slice(0, SHOWN_COHORTS);
  if (shown.length === 0) {
    return <Empty title="No customers acquired in the last 26 weeks">Cohorts appear once a customer converts.</Empty>;
  }
  return (
    <div class="table-scroll">
      <table class="striped payback-table">
        <caption class="muted">
          Cumulative revenue per customer after acquisition; <strong class="paid-back">green</strong> once it
          covers the week's CAC.
        </caption>
        <thead>
          <tr>
            <th scope="col">Week of</th>
            <th scope="col" class="num">Customers</th>
            <th scope="col" class="num">CAC</th>
            {POINT_DAYS.map((d) => (
              <th scope="col" class="num">
                Day {d}
              </th>
            ))}
            <th scope="col" class="num">Paid back</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((cohort) => (
            <tr data-row={cohort.cohort}>
              <th scope="row">{day(cohort.cohort)}</th>
              <td class="num">{count(cohort.customers)}</td>
              <td class="num" data-col="cac_cents">
                {moneyOr(cohort.cac_cents, currency, cohort.spend_cents === 0 ? 'no spend' : 'no customers')}
              </td>
              {POINT_DAYS.map((d) => (
                <PointCell cohort={cohort} dayNumber={d} currency={currency} />
              ))}
              <td class="num">{cohort.payback_day === null ? 'not yet' : `day ${cohort.payback_day}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PointCell({ cohort, dayNumber, currency }: { cohort: Cohort; dayNumber: number; currency: string }) {
  const point = cohort.points.find((p) => p.day === dayNumber);
  if (!point || point.per_customer_cents === null) {
    return (
      <td class="num muted" title="This cohort has not lived through that day yet">
        ·
      </td>
    );
  }
  const covers = cohort.cac_cents !== null && point.per_customer_cents >= cohort.cac_cents;
  return (
    <td class={`num${covers ? ' paid-back' : ''}`}>{money(point.per_customer_cents, currency)}</td>
  );
}
