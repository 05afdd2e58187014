//! Sign in with SSO (OpenID Connect, Google by default; issue 42): `start` sends the person to
//! the provider, the provider's `callback` is turned into a one-time ticket, and `complete`
//! trades the ticket for a dashboard session.
//!
//! Who signs in is keyed by the issuer and the provider's `sub`, never by the email alone:
//! (1) a linked `sub` signs into its person whatever email it now carries; (2) otherwise the
//! verified email: nobody holds it, a new verified person without a password owning a new
//! account; somebody does, they are linked and signed in (an unconfirmed sign-up becomes
//! verified and loses the password its author chose: they never proved the mailbox); (3) a
//! person linked to one `sub` of this issuer is never linked to another, so an address recycled
//! at the provider cannot reach the old person.
//!
//! The provider's code and tokens and the client secret never leave `payback_connectors::oidc`:
//! nothing here returns or logs them, and the ticket travels in the dashboard's URL fragment,
//! which browsers do not send to servers.

use payback_connectors::oidc::{Callback, OidcClient, Provider, SignedIn};
use payback_domain::validation::{
    PERSON_NAME_MAX_CHARS, check_email, check_one_line_field, normalize_email,
};
use payback_domain::{Actor, MINUTE_MS, MemberRole, MemberStatus, Timestamp, Via};
use payback_store::one_time_tokens::{self, Purpose};
use payback_store::sso::{self as store, NewIdentity, NewState, NewTicket};
use payback_store::users::{NewUser, UserRow};
use payback_store::{AccountScope, StoreError, Tx, accounts, members, users};
use serde_json::json;

use crate::crypto::{new_token, token_hash};
use crate::error::{ApiError, ApiResult};
use crate::services::{audit, sessions, signup};
use crate::state::AppState;
use crate::views::LoginResponse;

/// A state is good for one callback within this long of `start`.
pub const STATE_VALIDITY_MS: i64 = 10 * MINUTE_MS;
/// A ticket is good for one completion within this long of the callback.
pub const TICKET_VALIDITY_MS: i64 = 2 * MINUTE_MS;

const NOT_CONFIGURED: &str =
    "sign-in with SSO is not configured (PAYBACK_SSO_CLIENT_ID and PAYBACK_SSO_CLIENT_SECRET)";
const PROVIDER_UNAVAILABLE: &str = "the sign-in provider cannot be reached; try again later";
const REFUSED: &str = "the sign-in was refused";

/// Payback's client at the provider; 503 until both the id and the secret are set.
fn client(state: &AppState) -> ApiResult<OidcClient> {
    let config = &state.config;
    match (&config.sso_client_id, &config.sso_client_secret) {
        (Some(id), Some(secret)) if !id.is_empty() && !secret.expose().is_empty() => {
            Ok(OidcClient::new(id.clone(), secret.expose().to_owned()))
        }
        _ => Err(ApiError::ServiceUnavailable(NOT_CONFIGURED.to_owned())),
    }
}

/// Whether sign-in with SSO is configured (the dashboard shows its button only then).
pub fn configured(state: &AppState) -> bool {
    client(state).is_ok()
}

/// The provider as discovered (read once per app state); 503 when discovery fails or its
/// `issuer` is not the configured one.
async fn provider(state: &AppState) -> ApiResult<std::sync::Arc<Provider>> {
    state
        .sso
        .provider(&state.http, &state.config.sso_issuer)
        .await
        .map_err(|err| {
            tracing::warn!(error = %err, "sso: discovery failed");
            ApiError::ServiceUnavailable(PROVIDER_UNAVAILABLE.to_owned())
        })
}

/// Where the provider sends the person back: registered with the provider as is.
pub fn redirect_url(state: &AppState) -> String {
    format!("{}/auth/sso/callback", state.config.public_url())
}

/// `GET /auth/sso/start`: stores a fresh single-use state (with its nonce and PKCE verifier)
/// and answers the provider's authorization URL.
pub async fn start(state: &AppState) -> ApiResult<String> {
    let client = client(state)?;
    let provider = provider(state).await?;
    let request = client
        .sign_in_request(&provider, &redirect_url(state))
        .map_err(|err| {
            tracing::warn!(error = %err, "sso: cannot build the authorization request");
            ApiError::ServiceUnavailable(PROVIDER_UNAVAILABLE.to_owned())
        })?;
    let now = state.clock.now();
    let new_state = NewState {
        state: &request.state,
        nonce: &request.nonce,
        pkce_verifier: &request.pkce_verifier,
        expires_at: now.plus_millis(STATE_VALIDITY_MS),
    };
    store::insert_state(&state.store, new_state, now).await?;
    Ok(request.url)
}

/// What the provider's redirect carries.
#[derive(Debug, Default)]
pub struct CallbackParams {
    pub state: Option<String>,
    pub code: Option<String>,
    /// The provider's refusal (`access_denied`, ...), instead of a code.
    pub error: Option<String>,
}

/// `GET /auth/sso/callback`: consumes the state (the first callback naming it uses it up,
/// whatever comes next), exchanges the code once and checks the ID token, decides who signs in
/// and answers the dashboard URL carrying a fresh ticket. Every refusal is 400 and leaves
/// nothing created or linked; no code is exchanged without a valid state.
pub async fn callback(state: &AppState, params: CallbackParams) -> ApiResult<String> {
    let now = state.clock.now();
    let given = params
        .state
        .filter(|value| !value.is_empty())
        .ok_or_else(|| ApiError::bad_request("state: missing"))?;
    let stored = store::consume_state(&state.store, &given, now)
        .await?
        .filter(|row| row.expires_at > now.millis())
        .ok_or_else(|| ApiError::bad_request("state: unknown, used or expired"))?;
    if let Some(error) = params.error {
        return Err(ApiError::bad_request(format!(
            "{REFUSED}: the provider answered {}",
            error_code(&error)
        )));
    }
    let code = params
        .code
        .filter(|code| !code.is_empty())
        .ok_or_else(|| ApiError::bad_request("code: missing"))?;
    let client = client(state)?;
    let provider = provider(state).await?;
    let exchange = Callback {
        redirect_url: &redirect_url(state),
        code: &code,
        pkce_verifier: &stored.pkce_verifier,
        nonce: &stored.nonce,
    };
    let signed_in = client
        .sign_in(&state.http, &provider, exchange, now)
        .await
        .map_err(|err| {
            // The connector's messages name the failed check or the provider's error code;
            // they never carry the code, a token or the secret.
            tracing::warn!(error = %err, "sso: callback refused");
            ApiError::bad_request(format!("{REFUSED}: {err}"))
        })?;
    let ticket = new_token("");
    let mut tx = state.store.begin().await?;
    let (user_id, is_new) = who_signs_in(&mut tx, state, &signed_in, now).await?;
    let new_ticket = NewTicket {
        ticket_hash: &token_hash(&ticket),
        user_id: &user_id,
        is_new,
        expires_at: now.plus_millis(TICKET_VALIDITY_MS),
    };
    store::insert_ticket(&mut tx, new_ticket, now).await?;
    tx.commit().await?;
    Ok(format!("{}/#/auth/sso/{ticket}", state.config.public_url()))
}

/// The provider's `error` parameter as a word of RFC 6749's error alphabet; anything else is
/// not echoed.
fn error_code(error: &str) -> &str {
    let plain = !error.is_empty()
        && error.len() <= 64
        && error
            .chars()
            .all(|c| c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit());
    if plain { error } else { "an error" }
}

/// Rules (1) to (3): the person this sign-in is for, and whether it created them.
async fn who_signs_in(
    tx: &mut Tx,
    state: &AppState,
    signed_in: &SignedIn,
    now: Timestamp,
) -> ApiResult<(String, bool)> {
    let issuer = state.config.sso_issuer.as_str();
    if let Some(identity) = store::find_identity(tx, issuer, &signed_in.subject).await? {
        return Ok((identity.user_id, false));
    }
    let email = normalize_email(&signed_in.email);
    check_email(&email).map_err(|msg| {
        ApiError::bad_request(format!("{REFUSED}: the provider's email is refused: {msg}"))
    })?;
    match users::find_by_email_in(tx, &email).await? {
        Some(user) => {
            if store::identity_of_user(tx, issuer, &user.id)
                .await?
                .is_some()
            {
                return Err(ApiError::bad_request(format!(
                    "{REFUSED}: this email belongs to a person signed in with another account of the provider"
                )));
            }
            store::link(tx, identity(issuer, signed_in, &user.id, &email), now)
                .await
                .map_err(conflict_is_refusal)?;
            prove_mailbox(tx, &user, now).await?;
            Ok((user.id, false))
        }
        None => {
            let user_id = create_person(tx, &email, signed_in.name.as_deref(), now).await?;
            store::link(tx, identity(issuer, signed_in, &user_id, &email), now)
                .await
                .map_err(conflict_is_refusal)?;
            Ok((user_id, true))
        }
    }
}

fn identity<'a>(
    issuer: &'a str,
    signed_in: &'a SignedIn,
    user_id: &'a str,
    email: &'a str,
) -> NewIdentity<'a> {
    NewIdentity {
        issuer,
        sub: &signed_in.subject,
        user_id,
        email,
    }
}

/// The provider verified the email, so the mailbox is proven. A sign-up never confirmed loses
/// the password it chose, and its confirmation links stop working: their author never proved
/// the mailbox. A confirmed person keeps theirs.
async fn prove_mailbox(tx: &mut Tx, user: &UserRow, now: Timestamp) -> ApiResult<()> {
    if user.verified {
        if !user.mailbox_proven {
            users::set_mailbox_proven(tx, &user.id).await?;
        }
        return Ok(());
    }
    store::prove_unconfirmed_mailbox(tx, &user.id).await?;
    one_time_tokens::void_outstanding(tx, &user.id, None, Purpose::VerifyEmail, now).await?;
    Ok(())
}

/// A new verified person without a password, named by the provider's `name` claim when it is a
/// name Payback accepts, owning a new account.
async fn create_person(
    tx: &mut Tx,
    email: &str,
    name: Option<&str>,
    now: Timestamp,
) -> ApiResult<String> {
    let name = name.map(str::trim).filter(|name| {
        !name.is_empty()
            && name.chars().count() <= PERSON_NAME_MAX_CHARS
            && check_one_line_field("name", name).is_ok()
    });
    let user = NewUser {
        email,
        password_hash: None,
        name,
        verified: true,
        mailbox_proven: true,
        signup_meta: None,
    };
    let user_id = users::insert(tx, user, now)
        .await
        .map_err(conflict_is_refusal)?;
    let account_id = accounts::insert(tx, &signup::default_account_name(email), now).await?;
    members::insert(
        tx,
        &AccountScope::trusted(account_id.clone()),
        &user_id,
        MemberRole::Owner,
        MemberStatus::Active,
        now,
    )
    .await?;
    let actor = Actor::human(email.to_owned(), Via::Dashboard);
    audit::record_account(
        tx,
        &actor,
        &account_id,
        "account.signup",
        Some(&user_id),
        json!({ "method": "sso" }),
        now,
    )
    .await?;
    Ok(user_id)
}

/// A concurrent sign-in of the same person or email won the race: this one is refused (the
/// transaction rolls back, nothing is created) and signing in again finds what the other made.
fn conflict_is_refusal(err: StoreError) -> ApiError {
    match err {
        StoreError::Conflict(_) => ApiError::bad_request(format!(
            "{REFUSED}: another sign-in of this person is under way; try again"
        )),
        other => other.into(),
    }
}

/// `POST /auth/sso/complete`: uses the ticket once and opens a session in the person's first
/// workspace, recording `auth.sso_login` (operators see it; tenants never see sign-ins).
/// Answers the login response and whether this sign-in created the account.
pub async fn complete(state: &AppState, ticket: &str) -> ApiResult<(LoginResponse, bool)> {
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let row = store::consume_ticket(&mut tx, &token_hash(ticket), now)
        .await?
        .ok_or_else(|| ApiError::bad_request("token: unknown, used or expired ticket"))?;
    let user = users::find_in(&mut tx, &row.user_id)
        .await?
        .ok_or_else(|| ApiError::bad_request("token: unknown, used or expired ticket"))?;
    let workspace = members::workspaces_of(&state.store, &user.id)
        .await?
        .into_iter()
        .next()
        .ok_or_else(|| {
            ApiError::Forbidden("your access to every workspace is disabled".to_owned())
        })?;
    let token = sessions::open_session(&mut tx, &user.id, &workspace.account_id, now).await?;
    let actor = Actor::human(user.email.clone(), Via::Dashboard);
    audit::record_account(
        &mut tx,
        &actor,
        &workspace.account_id,
        "auth.sso_login",
        Some(&user.id),
        json!({ "is_new": row.is_new }),
        now,
    )
    .await?;
    tx.commit().await?;
    let response = sessions::login_response(state, token, &user.id, &workspace.account_id).await?;
    Ok((response, row.is_new))
}

#[cfg(test)]
mod tests {
    use super::error_code;

    #[test]
    fn only_a_plain_error_code_is_echoed() {
        assert_eq!(error_code("access_denied"), "access_denied");
        assert_eq!(
            error_code("temporarily_unavailable"),
            "temporarily_unavailable"
        );
        for odd in ["", "<script>", "Access Denied", "a\nb", &"x".repeat(65)] {
            assert_eq!(error_code(odd), "an error", "{odd:?}");
        }
    }
}
