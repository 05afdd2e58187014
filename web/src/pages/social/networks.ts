// The social networks' names as people write them. These are networks (the report's
// `network` values), not source kinds.

const NETWORK_NAMES: Record<string, string> = {
  facebook: 'Facebook',
  instagram: 'Instagram',
  x: 'X',
};

export function networkName(network: string): string {
  return NETWORK_NAMES[network] ?? network;
}

/** A signed count change, e.g. 12 -> "+12", -3 -> "-3", 0 -> "±0". */
export function signed(change: number, format: (value: number) => string): string {
  if (change === 0) return '±0';
  return change > 0 ? `+${format(change)}` : `-${format(-change)}`;
}
