// Channel names as people read them. The API's channel slugs stay the stable keys (data-row,
// query parameters); custom channels from `attribution.channel` show as sent.

const LABELS: Record<string, string> = {
  paid_google: 'Google Ads',
  paid_meta: 'Meta Ads',
  paid_linkedin: 'LinkedIn Ads',
  paid_microsoft: 'Microsoft Ads',
  paid_other: 'Other paid',
  organic_search: 'Organic search',
  organic_social: 'Organic social',
  ai_search: 'AI search',
  email: 'Email',
  referral: 'Referral',
  direct: 'Direct',
  unattributed: 'Unattributed',
};

export const UNATTRIBUTED = 'unattributed';

export function channelLabel(channel: string | null | undefined): string {
  if (!channel) return 'No channel';
  return LABELS[channel] ?? channel;
}
