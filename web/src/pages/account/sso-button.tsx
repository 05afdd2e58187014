// "Sign in with Google" on the login and signup pages: a plain link to GET /auth/sso/start, which
// redirects to the provider (OpenID Connect). Shown only when the server says SSO is configured
// (GET /auth/sso/config, public): while that is read, or when it fails, the button stays hidden,
// so a server without a provider never offers a button that would answer 503.

import { useApi } from '../../ui/use-api';

interface SsoConfig {
  enabled: boolean;
}

export function SsoButton({ label }: { label: string }) {
  const config = useApi<SsoConfig>('/auth/sso/config');
  if (!config.data?.enabled) return null;
  return (
    <p class="sso-choice">
      <a class="sso-button" role="button" href="/auth/sso/start">
        {label}
      </a>
      <span class="muted"> or use your email below</span>
    </p>
  );
}
