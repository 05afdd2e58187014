//! Every rule the server checks of a request body, query or path, by area, each built from the
//! constant or list its check reads. A kind's own connect bodies state theirs in its plug-in
//! (`crate::kinds`).

use payback_domain::channel::UNATTRIBUTED;
use payback_domain::connection::{ConnectionKind, ConnectionStatus};
use payback_domain::policy::MAX_DAILY_CENTS;
use payback_domain::validation as input;
use payback_domain::{card, event, event_map};
use serde_json::{Value, json};
use utoipa::openapi::schema::{KnownFormat, SchemaFormat};

use super::rule::*;
use crate::input::limits;
use crate::kinds;
use crate::routes;
use crate::services::{
    attribution, chat, conversions, database_env, databases as databases_service, funnel, ingest,
    searchco, signup, socialco,
};

/// Every rule the server checks of a request body, query or path, where the schema states it.
pub fn rules() -> Vec<(At, Vec<Rule>)> {
    use crate::input::rules::{distribution, spend};
    use At::{Field, Param, Schema};
    use routes::{auth, connect, databases, history, queue};

    let mut rules = vec![
        // Account access (`routes/auth.rs`, `services/signup.rs`, `sessions.rs`, `team.rs`,
        // `keys.rs`, `workspaces.rs`; `domain/src/validation.rs`).
        (Field("SignupRequest", "email"), email()),
        (Field("SignupRequest", "password"), password()),
        (
            Field("SignupRequest", "anonId"),
            at_most(auth::MAX_ANON_ID_CHARS),
        ),
        (
            Field("SignupRequest", "meta"),
            vec![Rule::MaxBytes(auth::MAX_META_BYTES)],
        ),
        (Field("LeadPromptRequest", "email"), email()),
        (
            Field("LeadPromptRequest", "prompt_type"),
            vec![words(signup::LEAD_PROMPTS.iter().map(|(name, _)| *name))],
        ),
        (
            Field("LeadPromptRequest", "meta"),
            vec![Rule::MaxBytes(auth::MAX_META_BYTES)],
        ),
        (Field("AgentSignupRequest", "email"), email()),
        (
            Field("AgentSignupRequest", "name"),
            one_line_at_most(input::ACCOUNT_NAME_MAX_CHARS),
        ),
        (Field("ClaimRequest", "password"), password()),
        (
            Field("UpdateMeRequest", "name"),
            one_line_at_most(input::PERSON_NAME_MAX_CHARS),
        ),
        (Field("UpdateMeRequest", "new_password"), password()),
        (
            Schema("UpdateMeRequest"),
            vec![
                Rule::AnyRequired(vec!["name", "new_password"]),
                Rule::Requires("new_password", "current_password"),
            ],
        ),
        (
            Field("CreateAccountRequest", "name"),
            one_line_name(input::ACCOUNT_NAME_MAX_CHARS),
        ),
        (Field("AcceptInviteRequest", "password"), password()),
        (
            Field("AcceptInviteRequest", "name"),
            one_line_at_most(input::PERSON_NAME_MAX_CHARS),
        ),
        (
            Field("CreateKeyRequest", "name"),
            one_line_name(input::KEY_NAME_MAX_CHARS),
        ),
        (Field("InviteRequest", "email"), email()),
        // Products (`routes/products.rs`, `services/products.rs`).
        (
            Field("CreateProductRequest", "name"),
            one_line_name(input::PRODUCT_NAME_MAX_CHARS),
        ),
        (
            Field("CreateProductRequest", "slug"),
            vec![
                Rule::Chars(input::SLUG_MIN_CHARS, input::SLUG_MAX_CHARS),
                Rule::Pattern(input::SLUG_PATTERN.to_owned()),
            ],
        ),
        (
            Field("CreateProductRequest", "domain"),
            one_line_at_most(input::DOMAIN_MAX_CHARS),
        ),
        (Field("CreateProductRequest", "currency"), currency()),
        (
            Field("UpdateProductRequest", "name"),
            one_line_name(input::PRODUCT_NAME_MAX_CHARS),
        ),
        (Field("UpdateProductRequest", "currency"), currency()),
        (
            Field("UpdateProductRequest", "domain"),
            one_line_at_most(input::DOMAIN_MAX_CHARS),
        ),
        (
            Field("UpdateProductRequest", "gate_due_date"),
            vec![Rule::Format(SchemaFormat::KnownFormat(KnownFormat::Date))],
        ),
        (
            Schema("UpdateProductRequest"),
            vec![Rule::AnyRequired(vec![
                "name",
                "currency",
                "domain",
                "stage",
                "gate_due_date",
                "gate_result",
            ])],
        ),
        // Ingestion (`services/ingest.rs`, `domain/src/event.rs`).
        (
            Field("EventsRequest", "events"),
            vec![Rule::Items(0, ingest::MAX_SERVER_BATCH)],
        ),
        (
            Field("BrowserEventsRequest", "events"),
            vec![Rule::Items(0, ingest::MAX_BROWSER_BATCH)],
        ),
        (
            Field("IncomingEvent", "dedupe_id"),
            not_blank(event::MAX_ID_CHARS),
        ),
        (
            Field("IncomingEvent", "name"),
            at_most(event::MAX_NAME_CHARS),
        ),
        (
            Field("IncomingEvent", "occurred_at"),
            vec![Rule::Format(SchemaFormat::KnownFormat(
                KnownFormat::DateTime,
            ))],
        ),
        (
            Field("IncomingEvent", "anonymous_id"),
            at_most(event::MAX_ID_CHARS),
        ),
        (
            Field("IncomingEvent", "user_id"),
            at_most(event::MAX_ID_CHARS),
        ),
        (Field("IncomingEvent", "email"), email()),
        (Field("IncomingEvent", "currency"), currency()),
        (
            Field("IncomingEvent", "properties"),
            vec![Rule::MaxBytes(event::MAX_PROPERTIES_BYTES)],
        ),
        (
            Schema("IncomingEvent"),
            vec![Rule::Requires("currency", "value")],
        ),
        (
            Field("Attribution", "channel"),
            vec![
                Rule::Chars(0, event::MAX_CHANNEL_CHARS),
                Rule::Pattern(event::CHANNEL_PATTERN.to_owned()),
                Rule::NoneOf(vec![UNATTRIBUTED.to_owned()]),
            ],
        ),
        // Conversions (`services/conversions.rs`) and the funnel (`services/funnel.rs`).
        (
            Field("ConversionInput", "key"),
            vec![
                Rule::Chars(1, conversions::KEY_MAX_CHARS),
                Rule::Pattern(conversions::KEY_PATTERN.to_owned()),
            ],
        ),
        (
            Field("ConversionInput", "label"),
            one_line_name(conversions::LABEL_MAX_CHARS),
        ),
        (
            Field("ConversionInput", "tier"),
            vec![words(conversions::TIERS.iter().copied())],
        ),
        (Field("ConversionInput", "stage"), vec![stages()]),
        (
            Field("ConversionInput", "source"),
            vec![words(conversions::SOURCES.iter().copied())],
        ),
        (
            Field("ConversionInput", "event_name"),
            not_blank(conversions::EVENT_NAME_MAX_CHARS),
        ),
        (
            Field("ConversionInput", "value_mode"),
            vec![words(conversions::VALUE_MODES.iter().copied())],
        ),
        (
            Field("ConversionInput", "fixed_value_cents"),
            vec![Rule::Min(0)],
        ),
        (Field("ConversionInput", "currency"), currency()),
        (
            Field("ConversionInput", "score_mode"),
            vec![words(conversions::SCORE_MODES.iter().copied())],
        ),
        (
            Field("ConversionInput", "target_cpa_cents"),
            vec![Rule::Min(0)],
        ),
        (
            Field("ConversionInput", "grade_weights"),
            vec![Rule::MaxBytes(conversions::MAX_GRADE_WEIGHTS_BYTES)],
        ),
        (
            Schema("ConversionInput"),
            vec![
                // `fixed_value_cents` is required with the fixed value mode, and refused without it.
                Rule::Keyword(
                    "if",
                    json!({
                        "properties": {"value_mode": {"const": conversions::VALUE_MODE_FIXED}},
                        "required": ["value_mode"]
                    }),
                ),
                Rule::Keyword(
                    "then",
                    json!({
                        "properties": {"fixed_value_cents": {"type": "integer"}},
                        "required": ["fixed_value_cents"]
                    }),
                ),
                Rule::Keyword(
                    "else",
                    json!({"properties": {"fixed_value_cents": {"type": "null"}}}),
                ),
            ],
        ),
        (
            Field("SaveDefinitionRequest", "steps"),
            vec![Rule::Items(funnel::MIN_STEPS, funnel::MAX_STEPS)],
        ),
        (Field("StepInput", "stage"), vec![stages()]),
        (
            Field("StepInput", "label"),
            one_line_name(funnel::MAX_LABEL_CHARS),
        ),
        // Outreach (`routes/distribution.rs`).
        (
            Field("DistributionRequest", "productSlug"),
            vec![Rule::Chars(1, distribution::PRODUCT_SLUG_MAX_CHARS)],
        ),
        (
            Field("DistributionRequest", "channel"),
            one_line_name(distribution::LABEL_MAX_CHARS),
        ),
        (
            Field("DistributionRequest", "kind"),
            one_line_name(distribution::LABEL_MAX_CHARS),
        ),
        (
            Field("DistributionRequest", "url"),
            vec![
                Rule::Chars(0, distribution::TEXT_MAX_CHARS),
                Rule::Format(SchemaFormat::Custom("uri".to_owned())),
                Rule::Pattern(crate::input::rules::WEB_URL_PATTERN.to_owned()),
            ],
        ),
        (
            Field("DistributionRequest", "utmCampaign"),
            one_line_name(distribution::CAMPAIGN_MAX_CHARS),
        ),
        (
            Field("DistributionRequest", "note"),
            at_most(distribution::TEXT_MAX_CHARS),
        ),
        // Spend proposals, the queue and policies (`routes/spend.rs`, `routes/queue.rs`,
        // `services/policy.rs`; `domain/src/card.rs`, `domain/src/policy.rs`).
        (
            Field("ProposalRequest", "campaign_id"),
            vec![
                Rule::Chars(1, spend::CAMPAIGN_ID_MAX_CHARS),
                Rule::Pattern(input::ONE_LINE_PATTERN.to_owned()),
            ],
        ),
        (
            Field("ProposalRequest", "from_cents"),
            vec![Rule::Range(0, MAX_DAILY_CENTS)],
        ),
        (
            Field("ProposalRequest", "to_cents"),
            vec![Rule::Range(1, MAX_DAILY_CENTS)],
        ),
        (
            Field("ProposalRequest", "rationale"),
            vec![
                Rule::Chars(spend::RATIONALE_MIN_CHARS, spend::RATIONALE_MAX_CHARS),
                Rule::Pattern(input::NOT_BLANK_PATTERN.to_owned()),
            ],
        ),
        (
            Field("ProposalRequest", "rollback_if"),
            vec![Rule::MaxBytes(card::ROLLBACK_IF_MAX_BYTES)],
        ),
        (
            Field("ProposalRequest", "headline"),
            one_line_name(card::HEADLINE_MAX),
        ),
        (
            Field("ResolveRequest", "actor"),
            vec![Rule::Chars(1, queue::ACTOR_MAX_CHARS)],
        ),
        (
            Field("ResolveRequest", "snoozeHours"),
            vec![Rule::Range(1, card::MAX_SNOOZE_HOURS)],
        ),
        (
            Field("CapsEdit", "google"),
            vec![Rule::Range(1, MAX_DAILY_CENTS)],
        ),
        (
            Field("CapsEdit", "meta"),
            vec![Rule::Range(1, MAX_DAILY_CENTS)],
        ),
        (
            Schema("ProductPolicyRequest"),
            vec![Rule::AnyRequired(vec![
                "daily_caps",
                "adult_adjacent",
                "blocked_networks",
            ])],
        ),
        (
            Field("PortfolioPolicyRequest", "portfolio_ceiling_cents"),
            vec![Rule::Range(1, MAX_DAILY_CENTS)],
        ),
        (Field("PortfolioPolicyRequest", "currency"), currency()),
        (
            Schema("PortfolioPolicyRequest"),
            vec![Rule::AnyRequired(vec![
                "portfolio_ceiling_cents",
                "currency",
            ])],
        ),
        // Connections (`routes/connections.rs`, `routes/databases.rs`, `services/databases.rs`,
        // `services/database_env.rs`, `domain/src/event_map.rs`); each kind's connect body in its
        // plug-in (`kinds/`).
        // The chat assistant (`routes/chat.rs`, `services/chat/`).
        (
            Field("ChatRequest", "messages"),
            vec![Rule::Items(1, chat::MAX_MESSAGES)],
        ),
        (
            Field("ChatRequest", "section"),
            at_most(chat::MAX_SECTION_CHARS),
        ),
        (
            Field("ChatMessage", "content"),
            vec![Rule::Chars(1, chat::MAX_CONTENT_CHARS)],
        ),
        (
            Field("SuggestRequest", "source"),
            vec![words(
                databases::SUGGESTION_SOURCES.iter().map(|(word, _)| *word),
            )],
        ),
        (Field("EventMap", "table"), plain_name()),
        (Field("EventMap", "schema"), plain_name()),
        (Field("EventMap", "name"), at_most(event::MAX_NAME_CHARS)),
        (Field("EventMap", "timestamp"), plain_name()),
        (Field("EventMap", "dedupe_key"), plain_name()),
        (Field("EventMap", "user_id"), plain_name()),
        (Field("EventMap", "anonymous_id"), plain_name()),
        (Field("EventMap", "email"), plain_name()),
        (
            Field("EventMap", "attribution"),
            vec![
                Rule::Keys(event_map::ATTRIBUTION_FIELDS.map(str::to_owned).to_vec()),
                Rule::Values(plain_name()),
            ],
        ),
        (
            Field("EventMap", "filter"),
            vec![Rule::Items(0, event_map::MAX_CONDITIONS)],
        ),
        (Field("Condition", "column"), plain_name()),
        (
            Field("Condition", "value"),
            vec![Rule::Replace(condition_value())],
        ),
        (
            Schema("Condition"),
            vec![Rule::Keyword("allOf", condition_ops())],
        ),
        (Field("RevenueColumn", "column"), plain_name()),
        (Field("RevenueColumn", "currency"), plain_name()),
        // The search-engine grant (`routes/connect.rs`, `services/searchco.rs`).
        (
            Field("StartRequest", "product_slug"),
            vec![Rule::Chars(1, connect::SLUG_MAX_CHARS)],
        ),
        (
            Field("StartRequest", "kinds"),
            vec![
                Rule::Items(1, connect::KINDS_MAX),
                Rule::Each(vec![
                    Rule::Chars(0, connect::KIND_MAX_CHARS),
                    // The grant's kinds that have a connector in this build.
                    words(
                        searchco::GOOGLE
                            .kinds()
                            .filter(|kind| kinds::registry().reads(*kind))
                            .map(ConnectionKind::as_str),
                    ),
                ]),
            ],
        ),
        (
            Field("SelectRequest", "state"),
            vec![Rule::Chars(1, connect::STATE_MAX_CHARS)],
        ),
        (
            Param("/connect/searchco/status", "state"),
            at_most(connect::STATE_MAX_CHARS),
        ),
        // The social-network grant (`routes/connect.rs`, `services/socialco.rs`) and the social
        // kinds' connects (`kinds/`, `services/ad_accounts.rs`).
        (
            Field("SocialStartRequest", "product_slug"),
            vec![Rule::Chars(1, connect::SLUG_MAX_CHARS)],
        ),
        (
            Field("SocialStartRequest", "kinds"),
            vec![
                Rule::Items(1, connect::SOCIAL_KINDS_MAX),
                Rule::Each(vec![
                    Rule::Chars(0, connect::KIND_MAX_CHARS),
                    words(
                        socialco::META
                            .kinds()
                            .filter(|kind| kinds::registry().reads(*kind))
                            .map(ConnectionKind::as_str),
                    ),
                ]),
            ],
        ),
        (
            Field("SocialSelectRequest", "state"),
            vec![Rule::Chars(1, connect::STATE_MAX_CHARS)],
        ),
        (
            Field("SocialSelectRequest", "ad_account_id"),
            vec![Rule::Chars(1, connect::CHOICE_MAX_CHARS)],
        ),
        (
            Field("SocialSelectRequest", "page_id"),
            vec![Rule::Chars(1, connect::CHOICE_MAX_CHARS)],
        ),
        (
            Param("/connect/socialco/status", "state"),
            at_most(connect::STATE_MAX_CHARS),
        ),
        // Reads (`input/window.rs`: `Window`, `limits`; `services/attribution.rs`,
        // `routes/history.rs`) and the kinds a connection path names (`domain/src/source_kind.rs`).
        (Param("/history", "days"), days()),
        (Param("/history", "limit"), limit(limits::WINDOW)),
        (
            Param("/history", "include"),
            vec![words([history::INCLUDE_ACCOUNT])],
        ),
        (Param("/queue", "limit"), limit(limits::QUEUE)),
        (Param("/portfolio", "limit"), limit(limits::PORTFOLIO)),
        (Param("/team", "limit"), limit(limits::TEAM)),
        (Param("/auth/keys", "limit"), limit(limits::KEYS)),
        (Param("/connections", "limit"), limit(limits::CONNECTIONS)),
        (
            Param("/products/{slug}/conversions", "limit"),
            limit(limits::CONVERSIONS),
        ),
        (
            Param("/products/{slug}/attribution/sales", "limit"),
            limit(limits::WINDOW),
        ),
        (
            Param("/products/{slug}/attribution/ads", "limit"),
            limit(limits::WINDOW),
        ),
        (
            Param("/products/{slug}/distribution", "limit"),
            limit(limits::WINDOW),
        ),
        (
            Param("/products/{slug}/attribution/ads", "level"),
            vec![words(attribution::LEVELS.iter().map(|(word, _)| *word))],
        ),
        (
            Param("/products/{slug}/connections/{kind}/test", "kind"),
            kinds(|_| true),
        ),
        (
            Param("/products/{slug}/connections/{kind}/disconnect", "kind"),
            kinds(|_| true),
        ),
        (
            Param("/products/{slug}/connections/{kind}/sync", "kind"),
            kinds(ConnectionKind::syncs_on_demand),
        ),
        (
            Param("/products/{slug}/connections/{kind}/event-maps", "kind"),
            kinds(ConnectionKind::is_database),
        ),
        (
            Param(
                "/products/{slug}/connections/{kind}/suggest-mappings",
                "kind",
            ),
            kinds(ConnectionKind::is_database),
        ),
    ];
    for path in [
        "/products/{slug}/attribution",
        "/products/{slug}/attribution/sales",
        "/products/{slug}/attribution/ads",
        "/products/{slug}/timeseries",
        "/products/{slug}/funnel",
        "/products/{slug}/funnel/series",
        "/products/{slug}/conversions/report",
        "/products/{slug}/spend",
        "/products/{slug}/distribution",
        "/products/{slug}/social",
        "/products/{slug}/demand",
    ] {
        rules.push((Param(path, "days"), days()));
    }
    for field in event_map::ATTRIBUTION_FIELDS {
        if field != "channel" {
            rules.push((
                Field("Attribution", field),
                at_most(event::MAX_ATTRIBUTION_VALUE),
            ));
        }
    }
    for body in ["SqlARequest", "DatabaseRequest"] {
        rules.push((
            Field(body, "credentials"),
            vec![Rule::MaxBytes(databases_service::MAX_CREDENTIALS_BYTES)],
        ));
    }
    for body in ["SqlARequest", "DatabaseRequest", "EventMapsRequest"] {
        rules.push((
            Field(body, "event_maps"),
            vec![Rule::Items(0, event_map::MAX_MAPS)],
        ));
        rules.push((
            Field(body, "status"),
            vec![words(
                databases_service::REQUESTABLE_STATUSES
                    .iter()
                    .map(|status| status.as_str()),
            )],
        ));
    }
    for body in ["SqlARequest", "DatabaseRequest", "EventMapsRequest"] {
        // An active database connection needs maps to read.
        rules.push((
            Schema(body),
            vec![
                Rule::Keyword(
                    "if",
                    json!({
                        "properties": {"status": {"const": ConnectionStatus::Active.as_str()}},
                        "required": ["status"]
                    }),
                ),
                Rule::Keyword(
                    "then",
                    json!({"properties": {"event_maps": {"minItems": 1}}}),
                ),
            ],
        ));
    }
    for field in [
        "ads_customer_id",
        "analytics_a_property_id",
        "tagmgr_container_path",
        "search_console_site_url",
    ] {
        rules.push((
            Field("SelectRequest", field),
            vec![Rule::Chars(1, connect::CHOICE_MAX_CHARS)],
        ));
    }
    for field in [
        "host_env",
        "port_env",
        "user_env",
        "password_env",
        "database_env",
    ] {
        rules.push((
            Field("SqlARequest", field),
            vec![
                Rule::Chars(1, database_env::NAME_MAX_CHARS),
                Rule::Pattern(database_env::NAME_PATTERN.to_owned()),
                Rule::NotPrefix(database_env::RESERVED_PREFIX.to_owned()),
            ],
        ));
    }
    rules.extend(
        crate::kinds::all()
            .iter()
            .flat_map(|plugin| (plugin.rules)()),
    );
    rules.extend(dashboard_rules());
    rules.extend(growth_rules());
    rules.extend(routes::landing_pages::rules());
    rules.extend(routes::scorecard::rules());
    rules.extend(routes::service_account::rules());
    rules.extend(routes::detect::rules());
    rules.extend(routes::recordings::rules());
    rules
}

/// Stored dashboards (`services/dashboards`) and their spec (`domain/src/dashboard_spec.rs`).
fn dashboard_rules() -> Vec<(At, Vec<Rule>)> {
    use crate::services::dashboards::{
        DESCRIPTION_MAX_CHARS, NAME_MAX_CHARS, PROMPT_MAX_CHARS, PROMPT_MIN_CHARS,
    };
    use At::{Field, Schema};
    use payback_domain::dashboard_spec::{self as spec, WidgetType};

    let prompt = || {
        vec![
            Rule::Chars(PROMPT_MIN_CHARS, PROMPT_MAX_CHARS),
            Rule::Pattern(input::NOT_BLANK_PATTERN.to_owned()),
        ]
    };
    // Each type requires its own extra field and refuses the others' (`check_type_fields`).
    let per_type: Vec<Value> = WidgetType::ALL
        .iter()
        .map(|kind| {
            let foreign: Vec<Value> = spec::EXTRA_FIELDS
                .iter()
                .filter(|field| !kind.fields().contains(field))
                .map(|field| json!({ "required": [field] }))
                .collect();
            let mut then = json!({ "not": { "anyOf": foreign } });
            if let Some(required) = kind.required_field() {
                then["required"] = json!([required]);
            }
            json!({
                "if": {"properties": {"type": {"const": kind.as_str()}}, "required": ["type"]},
                "then": then
            })
        })
        .collect();
    vec![
        (
            Field("CreateDashboardRequest", "name"),
            one_line_name(NAME_MAX_CHARS),
        ),
        (
            Field("CreateDashboardRequest", "description"),
            at_most(DESCRIPTION_MAX_CHARS),
        ),
        (Field("CreateDashboardRequest", "prompt"), prompt()),
        (Field("GenerateDashboardRequest", "prompt"), prompt()),
        (
            Field("UpdateDashboardRequest", "name"),
            one_line_name(NAME_MAX_CHARS),
        ),
        (
            Field("UpdateDashboardRequest", "description"),
            at_most(DESCRIPTION_MAX_CHARS),
        ),
        (
            Schema("UpdateDashboardRequest"),
            vec![Rule::AnyRequired(vec!["name", "description", "spec"])],
        ),
        (
            Field("DashboardSpec", "widgets"),
            vec![Rule::Items(0, spec::MAX_WIDGETS)],
        ),
        (
            Field("Widget", "id"),
            vec![Rule::Chars(1, spec::ID_MAX_CHARS)],
        ),
        (Field("Widget", "title"), at_most(spec::TITLE_MAX_CHARS)),
        (Field("Widget", "text"), at_most(spec::NOTE_MAX_CHARS)),
        (
            Field("Widget", "days"),
            vec![
                Rule::Range(1, spec::MAX_DAYS),
                Rule::Default(json!(spec::DEFAULT_DAYS)),
            ],
        ),
        (
            Schema("Widget"),
            vec![Rule::Keyword("allOf", Value::Array(per_type))],
        ),
        (
            Field("WidgetLayout", "x"),
            vec![Rule::Range(0, spec::MAX_X)],
        ),
        (
            Field("WidgetLayout", "y"),
            vec![Rule::Range(0, spec::MAX_Y)],
        ),
        (
            Field("WidgetLayout", "w"),
            vec![Rule::Range(1, spec::GRID_COLUMNS)],
        ),
        (
            Field("WidgetLayout", "h"),
            vec![Rule::Range(1, spec::MAX_H)],
        ),
    ]
}

/// Growth actions (`services/growth`): the window and the coding-agent word, in the query of
/// the list and the body of the prompt.
fn growth_rules() -> Vec<(At, Vec<Rule>)> {
    use crate::services::growth::{AGENT_TOOLS, DEFAULT_DAYS, MAX_DAYS};
    use At::{Field, Param};
    const LIST: &str = "/products/{slug}/growth-actions";
    let days = || vec![Rule::Range(1, MAX_DAYS), Rule::Default(json!(DEFAULT_DAYS))];
    let tool = || vec![words(AGENT_TOOLS)];
    vec![
        (Param(LIST, "days"), days()),
        (Param(LIST, "tool"), tool()),
        (Field("GrowthPromptRequest", "days"), days()),
        (Field("GrowthPromptRequest", "tool"), tool()),
    ]
}
