// What each of the assistant's tools did, in the words a chip shows as the call happens
// ("read attribution", "raised a proposal"), and what it tried when the call failed ("could
// not raise a proposal"). A tool this list does not know (one added to the server later, or a
// name the model made up) shows its own name.

/** Per tool: [what a successful call did, what a failed call tried to do]. */
const words: Record<string, [string, string]> = {
  list_products: ['listed the products', 'list the products'],
  get_product: ['read the product', 'read the product'],
  get_attribution: ['read attribution', 'read attribution'],
  list_sales: ['read sales', 'read sales'],
  get_ads_report: ['read the ads report', 'read the ads report'],
  get_timeseries: ['read the time series', 'read the time series'],
  get_funnel: ['read the funnel', 'read the funnel'],
  get_payback: ['read payback', 'read payback'],
  get_conversions_report: ['read conversions', 'read conversions'],
  get_spend: ['read spend and caps', 'read spend and caps'],
  list_queue: ['read the queue', 'read the queue'],
  list_history: ['read history', 'read history'],
  list_connections: ['read connections', 'read connections'],
  get_health: ['read the health report', 'read the health report'],
  list_growth_actions: ['read growth actions', 'read growth actions'],
  list_distribution: ['read the distribution log', 'read the distribution log'],
  record_distribution: ['recorded distribution', 'record distribution'],
  propose_spend_change: ['raised a proposal', 'raise a proposal'],
};

/** The chip's words for a call of `name` that succeeded (`ok`) or failed. */
export function toolWords(name: string, ok: boolean): string {
  const known = words[name];
  if (!known) return ok ? `called ${name}` : `${name} failed`;
  return ok ? known[0] : `could not ${known[1]}`;
}
