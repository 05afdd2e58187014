//! The demo workspace a newcomer signs in to on first run.

use payback_domain::{Actor, MemberRole, MemberStatus};
use payback_store::products::NewProduct;
use payback_store::users::NewUser;
use payback_store::{AccountScope, accounts, api_keys, members, products, users};
use serde_json::json;

use crate::crypto::hash_password;
use crate::error::ApiResult;
use crate::services::{audit, keys};
use crate::state::AppState;

pub const DEMO_EMAIL: &str = "demo@payback.localhost";
pub const DEMO_PASSWORD: &str = "payback-demo";
const DEMO_KEY_NAME: &str = "demo";

/// The demo products: name, slug, currency, domain.
const DEMO_PRODUCTS: &[(&str, &str, &str, &str)] = &[
    ("Fjord Notes", "fjord-notes", "EUR", "fjordnotes.example"),
    ("Pixel Pantry", "pixel-pantry", "USD", "pixelpantry.example"),
    ("Quill CRM", "quill-crm", "USD", "quillcrm.example"),
];

/// What to tell the newcomer.
#[derive(Debug)]
pub struct DemoAccess {
    pub email: &'static str,
    pub password: &'static str,
    pub api_key: String,
    pub created: bool,
}

/// Creates the demo workspace once (owner login, three products). Each run mints a fresh demo
/// API key and revokes the previous one, since stored keys cannot be shown again.
pub async fn ensure_demo(state: &AppState) -> ApiResult<DemoAccess> {
    let now = state.clock.now();
    let existing = users::find_by_email(&state.store, DEMO_EMAIL).await?;
    let created = existing.is_none();
    let password_hash = match &existing {
        Some(_) => None,
        None => Some(hash_password(DEMO_PASSWORD.to_owned()).await?),
    };
    let mut tx = state.store.begin().await?;
    let account_id = match existing {
        Some(user) => members::owned_accounts(&mut tx, &user.id)
            .await?
            .into_iter()
            .next(),
        None => None,
    };
    let actor = Actor::system();
    let account_id = match (account_id, password_hash) {
        (Some(id), _) => id,
        (None, hash) => {
            let account_id = accounts::insert(&mut tx, "Demo Studio", now).await?;
            let scope = AccountScope::trusted(account_id.clone());
            let user_id = match users::find_by_email_in(&mut tx, DEMO_EMAIL).await? {
                Some(user) => user.id,
                None => {
                    let user = NewUser {
                        email: DEMO_EMAIL,
                        password_hash: hash.as_deref(),
                        name: Some("Demo Founder"),
                        verified: true,
                        signup_meta: None,
                    };
                    users::insert(&mut tx, user, now).await?
                }
            };
            members::insert(
                &mut tx,
                &scope,
                &user_id,
                MemberRole::Owner,
                MemberStatus::Active,
                now,
            )
            .await?;
            for (name, slug, currency, domain) in DEMO_PRODUCTS {
                let product = products::insert(
                    &mut tx,
                    &scope,
                    NewProduct {
                        slug,
                        name,
                        currency,
                        domain: Some(domain),
                    },
                    now,
                )
                .await?;
                audit::record_product(
                    &mut tx,
                    &actor,
                    &product,
                    "product.create",
                    json!({ "demo": true }),
                    now,
                )
                .await?;
            }
            account_id
        }
    };
    let scope = AccountScope::trusted(account_id);
    api_keys::revoke_named(&mut tx, &scope, DEMO_KEY_NAME, now).await?;
    let (_, api_key) = keys::mint(&mut tx, &scope, DEMO_KEY_NAME, now).await?;
    tx.commit().await?;
    Ok(DemoAccess {
        email: DEMO_EMAIL,
        password: DEMO_PASSWORD,
        api_key,
        created,
    })
}
