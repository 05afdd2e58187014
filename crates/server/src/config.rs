//! Service configuration: environment variables `PAYBACK_*`, optionally a `payback.toml` with
//! the same keys in lower case (the environment wins).

use std::collections::HashMap;
use std::net::SocketAddr;

use figment::Figment;
use figment::providers::{Format, Toml};
use serde::Deserialize;

use payback_domain::connection::ConnectionKind;

use crate::error::ApiError;
use crate::raw_env::RawEnv;
use crate::secret::Secret;
use crate::trusted_proxies::TrustedProxies;

/// The prefix of every setting's environment variable.
pub const ENV_PREFIX: &str = "PAYBACK_";

#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct Config {
    /// A `Secret`: a PostgreSQL URL carries the password.
    pub database_url: Secret,
    pub listen: SocketAddr,
    /// Base of links in emails and snippets; defaults to `http://<listen>`.
    pub public_url: Option<String>,
    pub operator_token: Option<Secret>,
    pub operator_email: Option<String>,
    pub staff_domain: Option<String>,
    /// `log`, `file:DIR` or `smtp://user:pass@host:port` (a `Secret`: the URL carries the
    /// password).
    pub mail: Secret,
    /// Address mail is sent from.
    pub mail_from: String,
    /// Requests per minute per client address to the public routes that hash a password or
    /// send mail (signup, lead prompt, agent signup, login, claim, accepting an invite), one
    /// budget for all of them.
    pub rate_limit_per_minute: u32,
    /// Requests per minute per client address to `POST /t/events`.
    pub tracking_rate_limit_per_minute: u32,
    /// Requests per minute per write key to `POST /t/events`, whatever the address.
    pub tracking_key_rate_limit_per_minute: u32,
    /// Login attempts per email (failed or not) per 15 minutes, whatever the address.
    pub login_attempts_per_email: u32,
    /// Reverse proxies whose `X-Forwarded-For` names the client (IPs or CIDR blocks,
    /// comma-separated); empty, the peer address is the client.
    pub trusted_proxies: TrustedProxies,
    /// Largest request body accepted, in bytes (event batches are the largest bodies).
    pub max_body_bytes: usize,
    /// Seconds between passes of the background job loop; 0 runs no jobs in this instance.
    pub jobs_every_secs: u64,
    /// Sync runs this instance runs at once (at least 1): each pass claims due connections into
    /// the free ones, and a slow source holds only its own (`services::sync`).
    pub sync_concurrency: usize,
    /// Milliseconds a report waits for its product's pending events to be folded before it
    /// answers from what is folded, saying how many are still pending
    /// (`X-Payback-Pending-Events`). Exports and checks that decide on the data always wait for
    /// the whole fold.
    pub read_wait_ms: u64,
    /// Base64 of 32 bytes sealing stored credentials; unset, connecting a source answers 503.
    pub secret_key: Option<Secret>,
    /// Where the payments connector sends its requests (the Stripe API); tests point it at a
    /// fake. `PAYBACK_PAYMENTS_API_URL` wins over it: this is that variable's older name.
    pub stripe_api_base: String,
    /// Each kind's vendor base URL as configured, from the kind table's variables
    /// (`PAYBACK_<KIND>_API_URL`); a kind not named here talks to its vendor's real origin.
    #[serde(skip)]
    pub api_urls: HashMap<ConnectionKind, String>,
    /// Payback's OAuth client at the search engine (Google): the search-engine grant
    /// (`/connect/searchco/...`) answers 503 until both are set.
    pub searchco_client_id: Option<String>,
    pub searchco_client_secret: Option<Secret>,
    /// The provider's authorization, token and revoke endpoints; tests point them at a fake.
    pub searchco_auth_url: String,
    pub searchco_token_url: String,
    pub searchco_revoke_url: String,
    /// Payback's Google Ads developer token (`developer-token` header of every ads call).
    pub search_ads_developer_token: Option<Secret>,
    /// Whether the search-engine grant offers `search_console` (`PAYBACK_SEARCHCO_SEARCH_CONSOLE`):
    /// off, a start naming it answers 400. Off by default: an operator switches it on once
    /// their Google OAuth client may ask for the Search Console scope (`webmasters.readonly`).
    pub searchco_search_console: bool,
    /// Payback's Google service account (its JSON key file), which tenants may give access to
    /// their analytics property, tag manager container or Search Console site instead of a
    /// grant (`/connect/searchco/service-account/...`, 503 while unset). Read at each use, so
    /// a rotated key needs no restart.
    pub searchco_service_account_key_file: Option<std::path::PathBuf>,
    /// Payback's app at the social network (Meta): the social-network grant
    /// (`/connect/socialco/...`) answers 503 until both are set.
    pub socialco_client_id: Option<String>,
    pub socialco_client_secret: Option<Secret>,
    /// The provider's Login dialog and token endpoint; unset, Meta's own (the Graph API
    /// version the connector speaks). Tests point them at a fake.
    pub socialco_auth_url: Option<String>,
    pub socialco_token_url: Option<String>,
    /// Sign in with SSO (OpenID Connect): the provider's issuer, whose
    /// `/.well-known/openid-configuration` names its endpoints (read when first needed), and
    /// Payback's client there. `/auth/sso/start` answers 503 until the id and secret are set.
    pub sso_issuer: String,
    pub sso_client_id: Option<String>,
    pub sso_client_secret: Option<Secret>,
    /// Base URL of an OpenAI-compatible chat completions gateway (`/chat/completions` is
    /// appended).
    pub model_gateway_url: String,
    /// The gateway's bearer key; unset, the AI features answer 503.
    pub model_gateway_key: Option<Secret>,
    /// The model asked.
    pub model: String,
    /// The Google service account's JSON key file the scorecard's Sheets sync signs in with
    /// (`PAYBACK_SHEETS_SERVICE_ACCOUNT_KEY_FILE`); unset, the sync answers 503.
    pub sheets_service_account_key_file: Option<String>,
    /// The Sheets v4 and Drive v3 API origins (`PAYBACK_SHEETS_API_URL`,
    /// `PAYBACK_DRIVE_API_URL`); tests point them at a fake.
    pub sheets_api_url: String,
    pub drive_api_url: String,
    /// Chat requests (`POST /chat`, `POST /products/{slug}/chat`) per minute per account,
    /// whichever credential sends them: each one costs model tokens.
    pub chat_per_minute: u32,
    /// Fetches of tenant-given pages (detect-integrations) per minute per account
    /// (`PAYBACK_FETCH_PER_MINUTE`): each costs the server a request to someone else's site.
    pub fetch_per_minute: u32,
    /// Chat requests per minute per credential (one API key, one session).
    pub chat_key_per_minute: u32,
    /// Conversations under way at once per account; one more answers 429.
    pub chat_concurrent: usize,
    /// Characters a chat request's messages may hold in all (each message is also capped at
    /// 8,000): everything in them is sent to the gateway every round.
    pub chat_max_chars: usize,
    /// Lets tenants' database connections name loopback and private addresses (self-hosted
    /// setups, tests). Off, such hosts are refused: they would reach the API host's neighbours.
    pub allow_private_database_hosts: bool,
    /// Lets fetches of tenant-given URLs (landing pages, their redirects) reach loopback and
    /// private addresses (tests, self-hosted setups); off, they are refused (`fetch_guard.rs`).
    pub allow_private_fetch_hosts: bool,
    /// Billing (issue 41): Payback's own Stripe account, which bills the workspaces (nothing to
    /// do with the tenants' `payments` connections). Its secret key (`PAYBACK_BILLING_STRIPE_KEY`),
    /// webhook signing secret (`whsec_...`), the per-product monthly prices of the two paid
    /// plans, and the API origin (tests point it at a fake). Without the key and both prices no
    /// plan gate applies and checkout, portal and webhook answer 503 (`billing_available`).
    pub billing_stripe_key: Option<Secret>,
    pub billing_webhook_secret: Option<Secret>,
    pub billing_price_indie: Option<String>,
    pub billing_price_growth: Option<String>,
    pub billing_api_url: String,
    /// Days a new workspace trials the top plan, without a card.
    pub trial_days: i64,
    /// Days each product is free from its creation before it joins the bill.
    pub product_free_days: i64,
    /// The API host's environment as it was at start: operators may point a `sql_a` connection
    /// at variables of it by name. Captured once so nothing reads the process environment later.
    #[serde(skip)]
    pub host_env: HostEnv,
}

/// A snapshot of environment variables. `Debug` shows only how many there are: values may be
/// secrets.
#[derive(Clone, Default)]
pub struct HostEnv(std::collections::HashMap<String, String>);

impl HostEnv {
    /// The process environment now.
    pub fn capture() -> Self {
        Self(std::env::vars().collect())
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// Sets a variable in this snapshot (tests, and embedding callers).
    pub fn set(&mut self, name: impl Into<String>, value: impl Into<String>) {
        self.0.insert(name.into(), value.into());
    }
}

impl std::fmt::Debug for HostEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HostEnv({} variables)", self.0.len())
    }
}

impl Default for Config {
    fn default() -> Self {
        Self {
            database_url: Secret::from("sqlite://data/payback.db"),
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            public_url: None,
            operator_token: None,
            operator_email: None,
            staff_domain: None,
            mail: Secret::from("log"),
            mail_from: "Payback <no-reply@payback.localhost>".to_owned(),
            rate_limit_per_minute: 20,
            // A page view sends a few beacons; this leaves room for busy visitors and offices
            // behind one address.
            tracking_rate_limit_per_minute: 600,
            tracking_key_rate_limit_per_minute: 6000,
            login_attempts_per_email: 10,
            trusted_proxies: TrustedProxies::default(),
            max_body_bytes: 16 * 1024 * 1024,
            jobs_every_secs: 30,
            // Runs mostly wait on vendors: eight at once cost little and serve hundreds of
            // connections an hour even when each takes seconds.
            sync_concurrency: 8,
            // A burst or a backfill can take minutes to fold; a dashboard answers within about
            // a second, and exactly whenever the fold keeps up (the usual case).
            read_wait_ms: 1_000,
            secret_key: None,
            stripe_api_base: "https://api.stripe.com".to_owned(),
            api_urls: HashMap::new(),
            searchco_client_id: None,
            searchco_client_secret: None,
            searchco_auth_url: payback_connectors::oauth::GOOGLE_AUTH_URL.to_owned(),
            searchco_token_url: payback_connectors::oauth::GOOGLE_TOKEN_URL.to_owned(),
            searchco_revoke_url: payback_connectors::oauth::GOOGLE_REVOKE_URL.to_owned(),
            search_ads_developer_token: None,
            searchco_search_console: false,
            searchco_service_account_key_file: None,
            socialco_client_id: None,
            socialco_client_secret: None,
            socialco_auth_url: None,
            socialco_token_url: None,
            sso_issuer: "https://accounts.google.com".to_owned(),
            sso_client_id: None,
            sso_client_secret: None,
            model_gateway_url: "https://api.openai.com/v1".to_owned(),
            model_gateway_key: None,
            model: "gpt-4o-mini".to_owned(),
            sheets_service_account_key_file: None,
            sheets_api_url: "https://sheets.googleapis.com".to_owned(),
            drive_api_url: "https://www.googleapis.com".to_owned(),
            // A person asks a question every few seconds at most; an agent looping faster is
            // spending money, not reading answers.
            chat_per_minute: 20,
            fetch_per_minute: 30,
            chat_key_per_minute: 10,
            chat_concurrent: 3,
            // Four full messages: a long conversation, but not a stuffed one (issue 35 sent
            // 280 KB per gateway round).
            chat_max_chars: 32_000,
            allow_private_database_hosts: false,
            allow_private_fetch_hosts: false,
            billing_stripe_key: None,
            billing_webhook_secret: None,
            billing_price_indie: None,
            billing_price_growth: None,
            billing_api_url: "https://api.stripe.com".to_owned(),
            trial_days: 30,
            product_free_days: 30,
            host_env: HostEnv::default(),
        }
    }
}

impl Config {
    /// Reads `payback.toml` (when present) and then the `PAYBACK_` environment.
    pub fn load() -> Result<Self, ApiError> {
        let figment = Figment::new()
            .merge(Toml::file("payback.toml"))
            .merge(RawEnv::process(ENV_PREFIX));
        Self::from_figment(&figment).map(|config| Config {
            host_env: HostEnv::capture(),
            ..config
        })
    }

    /// The configuration `figment` holds, with the vendor base URLs of every kind the kind
    /// table names a variable for. Extracted leniently: the environment's values are all text
    /// ([`RawEnv`]), so a number or a boolean setting parses its text, and a string setting
    /// keeps a value made only of digits as it is (an app id, a token, leading zeros kept).
    fn from_figment(figment: &Figment) -> Result<Self, ApiError> {
        let mut config: Config = figment
            .extract_lossy()
            .map_err(|err| ApiError::Config(err.to_string()))?;
        for kind in ConnectionKind::all() {
            let Some(variable) = kind.spec().api_url_var else {
                continue;
            };
            // The key figment gives `PAYBACK_X_API_URL` (and `x_api_url` in payback.toml).
            let key = variable.trim_start_matches("PAYBACK_").to_ascii_lowercase();
            if let Ok(url) = figment.extract_inner::<String>(&key) {
                config.api_urls.insert(kind, url);
            }
        }
        Ok(config)
    }

    /// The base URL `kind`'s connector calls, when one is configured; `None` means the
    /// vendor's real origin (the connector's default).
    pub fn api_url(&self, kind: ConnectionKind) -> Option<&str> {
        if let Some(url) = self.api_urls.get(&kind) {
            return Some(url);
        }
        let alias = kind.spec().api_url_alias?;
        self.alias_settings()
            .into_iter()
            .find(|(variable, _)| *variable == alias)
            .map(|(_, url)| url)
    }

    /// The settings read under a kind's older variable (the kind table's `api_url_alias`), each
    /// with that variable. Each is a field of its own, so it keeps its default (the vendor's
    /// origin) and a test can set it; the kind's own variable wins over it.
    fn alias_settings(&self) -> [(&'static str, &str); 1] {
        [("PAYBACK_STRIPE_API_BASE", self.stripe_api_base.as_str())]
    }

    /// Whether billing is set up: the Stripe key and both plans' prices (issue 41).
    pub fn billing_available(&self) -> bool {
        let set = |value: Option<&str>| value.is_some_and(|text| !text.trim().is_empty());
        set(self.billing_stripe_key.as_ref().map(Secret::expose))
            && set(self.billing_price_indie.as_deref())
            && set(self.billing_price_growth.as_deref())
    }

    /// [`Self::read_wait_ms`] as a duration.
    pub fn read_wait(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.read_wait_ms)
    }

    pub fn public_url(&self) -> String {
        match &self.public_url {
            Some(url) => url.trim_end_matches('/').to_owned(),
            None => format!("http://{}", self.listen),
        }
    }

    /// Whether this email belongs to the platform's staff (`platform_admin`).
    pub fn is_staff(&self, email: &str) -> bool {
        self.staff_domain.as_deref().is_some_and(|domain| {
            let domain = domain.trim_start_matches('@').to_ascii_lowercase();
            email
                .rsplit_once('@')
                .is_some_and(|(_, host)| host == domain)
        })
    }
}

#[cfg(test)]
mod tests {
    use figment::Figment;
    use figment::providers::{Format, Toml};
    use payback_domain::connection::ConnectionKind;

    use super::Config;
    use crate::raw_env::RawEnv;
    use crate::secret::Secret;

    fn loaded(toml: &str) -> Config {
        Config::from_figment(&Figment::new().merge(Toml::string(toml))).unwrap()
    }

    #[test]
    fn every_kinds_base_url_variable_is_read() {
        let kinds: Vec<ConnectionKind> = ConnectionKind::all()
            .filter(|kind| kind.spec().api_url_var.is_some())
            .collect();
        let toml: String = kinds
            .iter()
            .map(|kind| format!("{}_api_url = \"http://fake/{kind}\"\n", kind.as_str()))
            .collect();
        let config = loaded(&toml);
        for kind in &kinds {
            let expected = format!("http://fake/{kind}");
            assert_eq!(config.api_url(*kind), Some(expected.as_str()), "{kind}");
        }
        // The kind table's variables are the ones figment was given.
        for kind in &kinds {
            let variable = kind.spec().api_url_var.unwrap_or_default();
            assert_eq!(
                variable,
                format!("PAYBACK_{}_API_URL", kind.as_str().to_ascii_uppercase())
            );
        }
        assert_eq!(config.api_url(ConnectionKind::SqlA), None);
    }

    #[test]
    fn payments_reads_its_older_variable_and_the_new_one_wins() {
        let defaults = loaded("");
        assert_eq!(
            defaults.api_url(ConnectionKind::Payments),
            Some("https://api.stripe.com")
        );
        assert_eq!(defaults.api_url(ConnectionKind::SocialAdsA), None);
        let old = loaded("stripe_api_base = \"http://old\"");
        assert_eq!(old.api_url(ConnectionKind::Payments), Some("http://old"));
        let both = loaded("stripe_api_base = \"http://old\"\npayments_api_url = \"http://new\"");
        assert_eq!(both.api_url(ConnectionKind::Payments), Some("http://new"));
    }

    #[test]
    fn every_older_variable_of_the_kind_table_is_a_setting() {
        let config = Config::default();
        for alias in ConnectionKind::all().filter_map(|kind| kind.spec().api_url_alias) {
            let setting = config
                .alias_settings()
                .into_iter()
                .find(|(variable, _)| *variable == alias);
            assert!(setting.is_some(), "{alias} has no setting");
            // The setting is the one figment reads for that variable.
            let name = alias
                .trim_start_matches(super::ENV_PREFIX)
                .to_ascii_lowercase();
            assert!(setting_names().contains(&name.as_str()), "{name}");
        }
        for (variable, _) in config.alias_settings() {
            assert!(
                ConnectionKind::all().any(|kind| kind.spec().api_url_alias == Some(variable)),
                "{variable} is no kind's older variable"
            );
        }
    }

    /// The names of `Config`'s settings, as serde reads them (so a new setting is covered
    /// without being listed here).
    fn setting_names() -> &'static [&'static str] {
        use serde::de::{self, Deserializer, Visitor};

        struct Names(Option<&'static [&'static str]>);
        impl<'de> Deserializer<'de> for &mut Names {
            type Error = de::value::Error;
            fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
                Err(de::Error::custom("only a struct's field names are read"))
            }
            fn deserialize_struct<V: Visitor<'de>>(
                self,
                _: &'static str,
                fields: &'static [&'static str],
                _: V,
            ) -> Result<V::Value, Self::Error> {
                self.0 = Some(fields);
                Err(de::Error::custom("field names read"))
            }
            serde::forward_to_deserialize_any! {
                bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
                byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map enum
                identifier ignored_any
            }
        }
        let mut names = Names(None);
        let _ = <Config as serde::Deserialize>::deserialize(&mut names);
        names.0.expect("Config is a struct")
    }

    fn from_env(vars: &[(&str, &str)]) -> Result<Config, crate::ApiError> {
        let vars = vars
            .iter()
            .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()));
        Config::from_figment(&Figment::new().merge(RawEnv::from_vars(super::ENV_PREFIX, vars)))
    }

    fn variable(name: &str) -> String {
        format!("PAYBACK_{}", name.to_ascii_uppercase())
    }

    /// The settings that take any text: those a value that is no number, switch or address
    /// loads into (found by trying, so a new setting is covered without being listed).
    fn text_settings() -> Vec<&'static str> {
        setting_names()
            .iter()
            .copied()
            .filter(|name| from_env(&[(&variable(name), "plain words")]).is_ok())
            .collect()
    }

    /// A Meta app id is all digits: it, and every other text setting made only of digits,
    /// is read as that text, leading zeros kept.
    #[test]
    fn every_text_setting_keeps_a_value_made_of_digits() {
        let text = text_settings();
        for expected in [
            "socialco_client_id",
            "socialco_client_secret",
            "searchco_client_id",
            "searchco_client_secret",
            "operator_token",
            "search_ads_developer_token",
            "model_gateway_key",
            "mail",
        ] {
            assert!(text.contains(&expected), "{expected} in {text:?}");
        }
        let digits = "0012345678901234";
        let variables: Vec<String> = text.iter().map(|name| variable(name)).collect();
        let vars: Vec<(&str, &str)> = variables
            .iter()
            .map(|name| (name.as_str(), digits))
            .collect();
        let config = from_env(&vars).expect("every text setting takes digits");
        // Each text setting shows the digits in `Debug`, except the secrets, which redact.
        let shown = format!("{config:?}");
        for name in &text {
            let forms = [
                format!("{name}: \"{digits}\""),
                format!("{name}: Some(\"{digits}\")"),
                format!("{name}: <redacted>"),
                format!("{name}: Some(<redacted>)"),
            ];
            assert!(
                forms.iter().any(|form| shown.contains(form.as_str())),
                "{name} in {shown}"
            );
        }
        assert_eq!(config.socialco_client_id.as_deref(), Some(digits));
        let secret = |value: &Option<Secret>| value.as_ref().map(|s| s.expose().to_owned());
        assert_eq!(
            secret(&config.socialco_client_secret).as_deref(),
            Some(digits)
        );
        assert_eq!(secret(&config.operator_token).as_deref(), Some(digits));
        assert_eq!(
            secret(&config.search_ads_developer_token).as_deref(),
            Some(digits)
        );
        assert_eq!(config.mail.expose(), digits);
        assert_eq!(config.model, digits);
    }

    #[test]
    fn the_search_console_switch_is_off_until_set() {
        assert!(!from_env(&[]).expect("loads").searchco_search_console);
        let on = from_env(&[("PAYBACK_SEARCHCO_SEARCH_CONSOLE", "true")]).expect("loads");
        assert!(on.searchco_search_console);
    }

    #[test]
    fn numbers_and_switches_still_parse_their_text() {
        let config = from_env(&[
            ("PAYBACK_SYNC_CONCURRENCY", "3"),
            ("PAYBACK_ALLOW_PRIVATE_DATABASE_HOSTS", "true"),
            ("PAYBACK_LISTEN", "127.0.0.1:9090"),
            ("PAYBACK_SOCIALCO_CLIENT_ID", "1008016813601991"),
            ("OTHER_SOCIALCO_CLIENT_ID", "not ours"),
        ])
        .expect("loads");
        assert_eq!(config.sync_concurrency, 3);
        assert!(config.allow_private_database_hosts);
        assert_eq!(config.listen.port(), 9090);
        assert_eq!(
            config.socialco_client_id.as_deref(),
            Some("1008016813601991")
        );
        let refused = from_env(&[("PAYBACK_SYNC_CONCURRENCY", "three")]).expect_err("not a number");
        assert!(
            refused.to_string().contains("PAYBACK_SYNC_CONCURRENCY"),
            "{refused}"
        );
    }

    #[test]
    fn sync_runs_eight_at_once_unless_told() {
        assert_eq!(loaded("").sync_concurrency, 8);
        assert_eq!(loaded("sync_concurrency = 3").sync_concurrency, 3);
    }
}
