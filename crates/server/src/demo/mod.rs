//! The demo workspace a newcomer signs in to on first run: an owner, three products, and for
//! each product what its pages would show after weeks of use. One file per area: `data`
//! (events and ad spend), `demand` (search, SEO, AI visibility, keyword gaps), `landing`
//! (tracked landing pages, their analysis and friction, recordings), `scorecard` (a layout
//! with a typed row). Source data is written as the sources' runs write it, with no connection
//! a job would then sync against a real vendor; so the tag manager's audit, which the tracking
//! page shows only for a connected tag manager, is not part of the demo.

mod data;
mod demand;
mod landing;
mod scorecard;

use payback_domain::card::Proposer;
use payback_domain::policy::{Network, PortfolioPolicy, ProductPolicy};
use payback_domain::{Actor, MemberRole, MemberStatus, Via};
use payback_store::products::{NewProduct, ProductPatch};
use payback_store::reports::exports;
use payback_store::users::NewUser;
use payback_store::{
    AccountScope, accounts, api_keys, demo_settings, members, policies, products, sessions, users,
};
use rand::Rng;
use serde_json::json;

use self::data::Touch::{Ai, Bare, Email, Google, Linkedin, Meta, Referral, Search, Social};
use self::data::{Shape, ad, mix};
use crate::crypto::{hash_password, verify_password};
use crate::error::{ApiError, ApiResult};
use crate::secret::Secret;
use crate::services::proposals::{self, ProposalCard, ProposalInput};
use crate::services::{audit, keys};
use crate::state::AppState;

pub const DEMO_EMAIL: &str = "demo@payback.localhost";
const DEMO_KEY_NAME: &str = "demo";
/// The demo password's characters: 32 of them (so every random byte maps to one without bias),
/// none that reads like another (no `0`, `1`, `l`, `o`).
const PASSWORD_ALPHABET: &[u8; 32] = b"23456789abcdefghijkmnpqrstuvwxyz";

/// The demo products: name, slug, currency, domain, and the shape of their synthetic data.
const DEMO_PRODUCTS: &[(&str, &str, &str, &str, &Shape)] = &[
    (
        "Fjord Notes",
        "fjord-notes",
        "EUR",
        "fjordnotes.example",
        &FJORD_NOTES,
    ),
    (
        "Pixel Pantry",
        "pixel-pantry",
        "USD",
        "pixelpantry.example",
        &PIXEL_PANTRY,
    ),
    (
        "Quill CRM",
        "quill-crm",
        "USD",
        "quillcrm.example",
        &QUILL_CRM,
    ),
];

// The shapes are tables: one line per way in (touch, weight, signup rate, pay rate after
// signup) and per ad (network, campaign, ad group or set, keyword or ad name, cost per click
// in cents, weight, started days ago).

/// Profitable: search ads convert well, social ads about break even.
#[rustfmt::skip]
const PIXEL_PANTRY: Shape = Shape {
    seed: 0x5049_5845_4c50, days: 182, identities: 3200, growth: 0.6, price_cents: 1_200, monthly_churn: 0.07,
    mix: &[
        mix(Google, 22, 0.26, 0.38), mix(Meta, 14, 0.16, 0.32), mix(Email, 6, 0.35, 0.45),
        mix(Search, 20, 0.22, 0.32), mix(Social, 8, 0.10, 0.20), mix(Referral, 8, 0.25, 0.35),
        mix(Ai, 4, 0.30, 0.40), mix(Bare, 18, 0.15, 0.25),
    ],
    ads: &[
        ad(Google, "PP Search - Brand", "Brand", "pixel pantry", 45, 4, 182),
        ad(Google, "PP Search - Icons", "Icon packs", "svg icon pack", 95, 4, 182),
        ad(Google, "PP Search - Icons", "Icon packs", "ui icons", 110, 3, 182),
        ad(Google, "PP Search - Icons", "Icon packs", "free icons for figma", 70, 2, 120),
        ad(Google, "PP Search - Illustrations", "Vector art", "vector illustrations", 120, 3, 150),
        ad(Google, "PP Search - Illustrations", "Vector art", "stock illustrations", 140, 2, 150),
        ad(Meta, "PP Prospecting", "Designers 25-44", "Carousel - icon sets", 45, 4, 182),
        ad(Meta, "PP Prospecting", "Designers 25-44", "Video - 30s tour", 55, 3, 140),
        ad(Meta, "PP Retargeting", "Visitors 30d", "Static - 20% off", 30, 2, 90),
    ],
};

/// Burning money on Meta: lots of cheap clicks that almost never pay; LinkedIn is costly.
#[rustfmt::skip]
const QUILL_CRM: Shape = Shape {
    seed: 0x5155_494c_4c43, days: 182, identities: 3000, growth: 0.3, price_cents: 4_900, monthly_churn: 0.05,
    mix: &[
        mix(Google, 18, 0.20, 0.30), mix(Meta, 38, 0.04, 0.08), mix(Linkedin, 6, 0.15, 0.25),
        mix(Email, 4, 0.30, 0.35), mix(Search, 14, 0.18, 0.30), mix(Social, 4, 0.08, 0.15),
        mix(Referral, 8, 0.22, 0.30), mix(Bare, 8, 0.12, 0.20),
    ],
    ads: &[
        ad(Google, "QC Search - CRM", "Small business CRM", "crm for small business", 420, 4, 182),
        ad(Google, "QC Search - CRM", "Small business CRM", "simple crm", 380, 3, 182),
        ad(Google, "QC Search - Competitors", "Alternatives", "hubspot alternative", 520, 3, 160),
        ad(Google, "QC Search - Competitors", "Alternatives", "pipedrive alternative", 470, 2, 160),
        ad(Meta, "QC Awareness", "Founders lookalike", "Video - pipeline tour", 190, 4, 120),
        ad(Meta, "QC Awareness", "Founders lookalike", "Static - free trial", 160, 3, 120),
        ad(Meta, "QC Awareness", "Interest - sales", "Carousel - features", 210, 3, 100),
        ad(Linkedin, "QC Sales leaders", "Sales managers US", "Sponsored - ROI guide", 780, 3, 150),
    ],
};

/// Early: six weeks of data, one small search campaign, a launch on social.
#[rustfmt::skip]
const FJORD_NOTES: Shape = Shape {
    seed: 0x464a_4f52_444e, days: 42, identities: 420, growth: 0.2, price_cents: 600, monthly_churn: 0.06,
    mix: &[
        mix(Google, 30, 0.15, 0.25), mix(Search, 20, 0.20, 0.30), mix(Social, 22, 0.12, 0.20),
        mix(Referral, 10, 0.20, 0.30), mix(Bare, 18, 0.10, 0.20),
    ],
    ads: &[
        ad(Google, "FN Search - Notes", "Note taking", "markdown notes app", 80, 3, 42),
        ad(Google, "FN Search - Notes", "Note taking", "private notes app", 65, 2, 30),
    ],
};

/// What to tell the newcomer.
#[derive(Debug)]
pub struct DemoAccess {
    pub email: &'static str,
    /// The same on every run on this database (see [`demo_password`]).
    pub password: Secret,
    pub api_key: Secret,
    pub created: bool,
    /// Synthetic events written by this run (0 once the demo has its data).
    pub seeded_events: usize,
}

/// A fresh demo password: 20 random characters in four groups (100 bits), e.g.
/// `k7vq2-9xh4m-pe3ta-w8cnz`.
fn new_password() -> String {
    let mut bytes = [0u8; 20];
    rand::rng().fill_bytes(&mut bytes);
    let mut password = String::with_capacity(23);
    for (i, byte) in bytes.iter().enumerate() {
        if i > 0 && i % 5 == 0 {
            password.push('-');
        }
        password.push(char::from(PASSWORD_ALPHABET[usize::from(byte % 32)]));
    }
    password
}

/// The demo owner's password on this database: chosen at random by the first run and kept in
/// `demo_settings` (which no route reads), so every later run prints the same one and a
/// password printed in one place does not open another installation's demo.
pub async fn demo_password(state: &AppState) -> ApiResult<Secret> {
    if let Some(kept) = demo_settings::password(&state.store).await? {
        return Ok(Secret::from(kept));
    }
    let mut tx = state.store.begin().await?;
    let kept = demo_settings::keep_password(&mut tx, &new_password(), state.clock.now()).await?;
    tx.commit().await?;
    Ok(Secret::from(kept))
}

/// Creates the demo workspace once (owner login, three products with months of synthetic
/// traffic, spend and revenue). Each run mints a fresh demo API key and revokes the previous
/// one, since stored keys cannot be shown again.
pub async fn ensure_demo(state: &AppState) -> ApiResult<DemoAccess> {
    let now = state.clock.now();
    let password = demo_password(state).await?;
    let existing = users::find_by_email(&state.store, DEMO_EMAIL).await?;
    let created = existing.is_none();
    // The printed password must sign in. The owner's hash is (re)set when it does not match:
    // a database whose demo predates random passwords (anyone knew that one), or a password
    // changed since through the profile.
    let current = match existing
        .as_ref()
        .and_then(|user| user.password_hash.clone())
    {
        Some(hash) => verify_password(password.expose().to_owned(), hash).await?,
        None => false,
    };
    let password_hash = if current {
        None
    } else {
        Some(hash_password(password.expose().to_owned()).await?)
    };
    let mut tx = state.store.begin().await?;
    if let (Some(user), Some(hash)) = (&existing, &password_hash) {
        users::set_password_hash(&mut tx, &user.id, hash).await?;
        // Whoever signed in with the password of before is signed out.
        sessions::delete_for_user(&mut tx, &user.id).await?;
    }
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
                        mailbox_proven: true,
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
            for (name, slug, currency, domain, _) in DEMO_PRODUCTS {
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
    let seeded_events = seed_products(state, &scope).await?;
    if created {
        seed_queue(state, &scope).await?;
    }
    Ok(DemoAccess {
        email: DEMO_EMAIL,
        password,
        api_key: Secret::from(api_key),
        created,
        seeded_events,
    })
}

/// Writes the synthetic data of each demo product that has no events yet (events and spend,
/// then demand, landing pages and the scorecard): right after the workspace was created, or
/// when an earlier run stopped before reaching that product. A product with events is left
/// alone, so reruns never add to it.
async fn seed_products(state: &AppState, scope: &AccountScope) -> ApiResult<usize> {
    let started = std::time::Instant::now();
    let mut seeded = 0;
    for (_, slug, _, _, shape) in DEMO_PRODUCTS {
        let Some(product) = products::find_by_slug(&state.store, scope, slug).await? else {
            continue;
        };
        state.ingest.settle(&product.id).await?;
        if !exports::events_page(&state.store, &product.id, 0, 1)
            .await?
            .is_empty()
        {
            continue;
        }
        let loaded = data::seed(state, &product, shape).await?;
        demand::seed(state, &product, shape).await?;
        landing::seed(state, &product).await?;
        scorecard::seed(state, &product).await?;
        tracing::info!(
            product = %slug,
            events = loaded.events,
            spend_rows = loaded.spend_rows,
            "demo data written"
        );
        seeded += loaded.events;
    }
    if seeded > 0 {
        tracing::info!(
            events = seeded,
            elapsed_ms = started.elapsed().as_millis() as u64,
            "demo data ready"
        );
    }
    Ok(seeded)
}

/// The demo's policy and what waits in its queue: caps and a ceiling, and two proposals an
/// agent might make (grow what pays back, cut what burns). Jobs add the alerts and the gate
/// review on their first pass.
async fn seed_queue(state: &AppState, scope: &AccountScope) -> ApiResult<()> {
    let now = state.clock.now();
    let db = &state.store;
    let find = |slug: &'static str| async move {
        products::find_by_slug(db, scope, slug)
            .await?
            .ok_or_else(|| ApiError::internal(format!("demo product {slug} is missing")))
    };
    let pantry = find("pixel-pantry").await?;
    let quill = find("quill-crm").await?;
    let fjord = find("fjord-notes").await?;
    let mut tx = state.store.begin().await?;
    let pantry_policy = ProductPolicy {
        google_cap_cents: Some(15_000),
        meta_cap_cents: Some(8_000),
        ..ProductPolicy::default()
    };
    policies::set_product_policy(&mut tx, &pantry.id, &pantry_policy, now).await?;
    let quill_policy = ProductPolicy {
        meta_cap_cents: Some(6_000),
        ..ProductPolicy::default()
    };
    policies::set_product_policy(&mut tx, &quill.id, &quill_policy, now).await?;
    let ceiling = PortfolioPolicy {
        ceiling_cents: Some(40_000),
        currency: "USD".to_owned(),
    };
    policies::set_portfolio_policy(&mut tx, scope.account_id(), &ceiling, now).await?;
    // Fjord Notes reaches its six-week gate today: the job loop raises its review.
    let today = now.day();
    let gate = ProductPatch {
        gate_due_date: Some(Some(today.as_str())),
        ..ProductPatch::default()
    };
    products::update(&mut tx, scope, &fjord.id, &gate).await?;

    let proposals = [
        (
            &pantry,
            Network::Google,
            8_000,
            12_000,
            "Search acquires customers at well under their lifetime value, and the icon campaigns hit their budget by mid-afternoon; raise the cap to capture the rest of the day.",
        ),
        (
            &quill,
            Network::Meta,
            6_000,
            2_000,
            "Meta brings cheap clicks that almost never pay: 30-day CAC is several times LTV. Cut the daily budget while the creative is reworked.",
        ),
    ];
    let keeper = Actor::keeper(Via::Api);
    for (product, network, from, to, rationale) in proposals {
        let input = ProposalInput {
            network,
            campaign_id: None,
            from_cents: Some(from),
            to_cents: to,
            rationale: rationale.to_owned(),
            rollback_if: Some(json!({ "cac_ceiling_cents": 4_000, "window_days": 7 })),
            headline: None,
        };
        let key = format!("demo-proposal:{}", product.slug);
        let request = ProposalCard {
            product,
            input: &input,
            proposer: Proposer::Keeper,
            reverts_card: None,
            dedupe_key: Some(&key),
        };
        if let Some(card) = proposals::raise_card(&mut tx, db, &request, now).await? {
            let payload =
                json!({ "network": network, "to_cents": to, "from_cents": from, "demo": true });
            audit::record_card(&mut tx, &keeper, &card, "proposal.create", payload, now).await?;
        }
    }
    tx.commit().await?;
    Ok(())
}
