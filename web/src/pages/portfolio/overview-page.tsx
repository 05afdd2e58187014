// A product's Overview: the built-in dashboard, drawn by the same renderer as stored ones.

import { useState } from 'preact/hooks';
import { ProductFrame } from '../../ui/product-frame';
import { OVERVIEW_SPEC, WidgetGrid } from '../../widgets';

export function OverviewPage({ slug }: { slug: string }) {
  const [generation, setGeneration] = useState(0);
  return (
    <ProductFrame slug={slug} tab="">
      {(product, reload) => (
        <>
          <WidgetGrid spec={OVERVIEW_SPEC} product={product} generation={generation} />
          <p class="overview-foot">
            <button
              type="button"
              class="outline secondary small"
              onClick={() => {
                reload();
                setGeneration((n) => n + 1);
              }}
            >
              Refresh numbers
            </button>
          </p>
        </>
      )}
    </ProductFrame>
  );
}
