// `#/shared/scorecard/:token`: a scorecard someone shared, read-only, without a session. The
// link dies when its owner revokes it (the server answers 404).

import { useEffect } from 'preact/hooks';
import { Await } from '../../ui/states';
import { useApi } from '../../ui/use-api';
import { MatrixTable } from './matrix-table';
import type { Matrix } from './types';
import './scorecard.css';

export function SharedScorecardPage({ token }: { token: string }) {
  const loaded = useApi<Matrix>(`/t/scorecard/${encodeURIComponent(token)}`);
  useEffect(() => {
    if (loaded.data) document.title = `${loaded.data.product_name} weekly scorecard · Payback`;
  }, [loaded.data]);
  return (
    <section class="page scorecard shared-scorecard">
      <Await loaded={loaded} what="Loading the shared scorecard">
        {(matrix) => (
          <>
            <header class="page-head">
              <h1>{matrix.product_name}: weekly scorecard</h1>
            </header>
            <p class="muted">A read-only copy shared from Payback. Weeks run Monday to Sunday (UTC).</p>
            <MatrixTable matrix={matrix} />
          </>
        )}
      </Await>
    </section>
  );
}
