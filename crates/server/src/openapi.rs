//! The OpenAPI document's frame (title, version, security scheme). Paths and schemas are
//! collected from the handlers by `utoipa-axum` as routes are registered; then
//! [`document_constraints`] writes into them the rules the server checks (lengths, patterns,
//! ranges, closed vocabularies), each from the constant or list its check reads. utoipa's own
//! attributes (`max_length = ..`, `pattern = ..`) take only literals, which would state every
//! number a second time.

use std::collections::BTreeMap;

use payback_connectors::payments::{self, PaymentStage};
use payback_domain::channel::UNATTRIBUTED;
use payback_domain::connection::{ConnectionKind, ConnectionStatus};
use payback_domain::event_map::FilterOp;
use payback_domain::policy::MAX_DAILY_CENTS;
use payback_domain::validation as input;
use payback_domain::{Stage, card, event, event_map};
use serde_json::{Value, json};
use utoipa::Modify;
use utoipa::Number;
use utoipa::openapi::path::{Operation, PathItem};
use utoipa::openapi::schema::{
    AdditionalProperties, ArrayItems, KnownFormat, Object, ObjectBuilder, Schema, SchemaFormat,
    SchemaType, Type,
};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{ContentBuilder, Header, OpenApi, Ref, RefOr, ResponseBuilder};

use crate::input::{ListLimit, Window, limits};
use crate::routes;
use crate::services::{
    attribution, chat, conversions, database_env, databases as databases_service, funnel, ingest,
    searchco, signup, socialco, sources,
};

#[derive(utoipa::OpenApi)]
#[openapi(
    info(
        title = "Payback",
        version = "0.2.0",
        description = "Did this spend pay back? Per product: ad spend, funnel events and revenue joined, \
                       with CAC, LTV, attribution and an approval queue in which only humans decide. \
                       Every error answers `{\"error\": \"...\"}`; on any route, a path or query holding `%00` \
                       (and any JSON string holding U+0000) answers 400 naming where. Request schemas state \
                       the rules the server checks (lengths, patterns, ranges, closed vocabularies); \
                       `x-max-bytes` bounds a JSON value's size once serialized."
    ),
    modifiers(&BearerAuth),
    components(schemas(crate::error::ErrorBody))
)]
pub struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some("An account API key `svc_live_...`, a session token `svc_sess_...` or the operator token"))
                    .build(),
            ),
        );
    }
}

/// Adds the 400 every route can answer (a path or query holding `%00`, refused before any
/// handler runs) to the operations whose own annotations list no 400. Runs on the finished
/// document, once every route has registered its operations.
pub fn document_refused_nul(openapi: &mut OpenApi) {
    let refused = ResponseBuilder::new()
        .description("The path or query holds `%00` (a NUL character)")
        .content(
            "application/json",
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name("ErrorBody")))
                .build(),
        )
        .build();
    for operation in openapi.paths.paths.values_mut().flat_map(operations_of) {
        operation
            .responses
            .responses
            .entry("400".to_owned())
            .or_insert_with(|| refused.clone().into());
    }
}

/// States on every documented 429 the `Retry-After` header
/// [`ApiError::TooManyRequests`](crate::error::ApiError::TooManyRequests) sends with it, so no
/// route has to repeat it.
pub fn document_retry_after(openapi: &mut OpenApi) {
    let schema = ObjectBuilder::new()
        .schema_type(Type::Integer)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
        .minimum(Some(1))
        .build();
    let mut header = Header::new(schema);
    header.description = Some(
        "Whole seconds until a request passes again; the same N as the message's \
         \"try again in N s\"."
            .to_owned(),
    );
    let operations = openapi.paths.paths.values_mut().flat_map(operations_of);
    for operation in operations {
        if let Some(RefOr::T(limited)) = operation.responses.responses.get_mut("429") {
            limited
                .headers
                .insert("Retry-After".to_owned(), RefOr::T(header.clone()));
        }
    }
}

/// The operations of one path the API serves (it has no HEAD, OPTIONS or TRACE of its own).
pub(crate) fn operations_of(item: &mut PathItem) -> impl Iterator<Item = &mut Operation> {
    [
        &mut item.get,
        &mut item.put,
        &mut item.post,
        &mut item.delete,
        &mut item.patch,
    ]
    .into_iter()
    .flatten()
}

/// One thing the server checks of a value, as a JSON Schema keyword states it. Each rule in
/// [`rules`] is built from the constant or the list the check itself reads, so the document and
/// the check cannot drift apart; `routes/*.rs` and `services/*.rs` name where each check is.
#[derive(Clone)]
enum Rule {
    /// `minLength` (when above 0) and `maxLength`, in characters.
    Chars(usize, usize),
    /// `pattern` (ECMA-262, unanchored unless it says `^...$`).
    Pattern(String),
    /// `minimum` and `maximum`.
    Range(i64, i64),
    /// `minimum` only.
    Min(i64),
    /// `default`: what the server takes when the value is left out.
    Default(Value),
    /// `enum`: the closed list of values (plus `null` where the type allows it).
    OneOf(Vec<String>),
    /// `minItems` (when above 0) and `maxItems`.
    Items(usize, usize),
    /// `x-max-bytes`: the value serialized as JSON is at most this many bytes.
    MaxBytes(usize),
    /// `format`.
    Format(SchemaFormat),
    /// `not: {enum}`: values refused although the other rules allow them.
    NoneOf(Vec<String>),
    /// `not: {pattern: "^<prefix>"}`: a prefix refused.
    NotPrefix(String),
    /// `propertyNames: {enum}`: the keys a map may have.
    Keys(Vec<String>),
    /// The rules every value of a map meets (`additionalProperties`).
    Values(Vec<Rule>),
    /// `anyOf: [{required: [a]}, ...]` on an object: at least one of these fields.
    AnyRequired(Vec<&'static str>),
    /// `dependentRequired: {a: [b]}` on an object: `b` whenever `a`.
    Requires(&'static str, &'static str),
    /// Any other JSON Schema keyword of an object (`if`/`then`/`else`).
    Keyword(&'static str, Value),
    /// The value's whole schema, where its Rust type says too little (a `serde_json::Value`
    /// the server reads as one of several types); the field's description stays.
    Replace(Value),
    /// The rules every item of an array meets.
    Each(Vec<Rule>),
}

/// Where a rule goes.
#[derive(Debug, Clone, Copy)]
enum At {
    /// A property of a component schema.
    Field(&'static str, &'static str),
    /// A component schema itself.
    Schema(&'static str),
    /// A parameter of every operation on a path.
    Param(&'static str, &'static str),
}

fn words<'a>(values: impl IntoIterator<Item = &'a str>) -> Rule {
    Rule::OneOf(values.into_iter().map(str::to_owned).collect())
}

fn stages() -> Rule {
    words(Stage::ALL.iter().map(|stage| stage.as_str()))
}

fn email() -> Vec<Rule> {
    vec![
        Rule::Chars(0, input::EMAIL_MAX_BYTES),
        Rule::Pattern(input::EMAIL_PATTERN.to_owned()),
    ]
}

fn password() -> Vec<Rule> {
    vec![Rule::Chars(
        input::PASSWORD_MIN_CHARS,
        input::PASSWORD_MAX_CHARS,
    )]
}

fn currency() -> Vec<Rule> {
    vec![Rule::Pattern(input::CURRENCY_PATTERN.to_owned())]
}

/// A name, label or headline: 1 to `max` characters on one line, not only whitespace
/// (`validation::check_one_line`).
fn one_line_name(max: usize) -> Vec<Rule> {
    vec![
        Rule::Chars(1, max),
        Rule::Pattern(input::ONE_LINE_NOT_BLANK_PATTERN.to_owned()),
    ]
}

/// An optional name or a domain: at most `max` characters on one line.
fn one_line_at_most(max: usize) -> Vec<Rule> {
    vec![
        Rule::Chars(0, max),
        Rule::Pattern(input::ONE_LINE_PATTERN.to_owned()),
    ]
}

/// Text of 1 to `max` characters that is not only whitespace (checked after trimming).
fn not_blank(max: usize) -> Vec<Rule> {
    vec![
        Rule::Chars(1, max),
        Rule::Pattern(input::NOT_BLANK_PATTERN.to_owned()),
    ]
}

/// A campaign filter: at most so many prefixes, each at most so long.
fn prefix_list() -> Vec<Rule> {
    use crate::services::social_connect::{PREFIX_MAX_CHARS, PREFIXES_MAX};
    vec![
        Rule::Items(0, PREFIXES_MAX),
        Rule::Each(vec![Rule::Chars(0, PREFIX_MAX_CHARS)]),
    ]
}

fn at_most(max: usize) -> Vec<Rule> {
    vec![Rule::Chars(0, max)]
}

fn limit(limit: ListLimit) -> Vec<Rule> {
    vec![
        Rule::Range(1, limit.max),
        Rule::Default(json!(limit.default)),
    ]
}

fn days() -> Vec<Rule> {
    vec![
        Rule::Range(1, Window::MAX_DAYS),
        Rule::Default(json!(Window::DEFAULT_DAYS)),
    ]
}

fn kinds(keep: impl Fn(ConnectionKind) -> bool) -> Vec<Rule> {
    vec![words(
        ConnectionKind::all()
            .filter(|kind| keep(*kind))
            .map(ConnectionKind::path_word),
    )]
}

/// A filter condition's `value`: a scalar, or for `in`/`not_in` a list of 1 to
/// [`event_map::MAX_IN_VALUES`] scalars (`event_map::check_condition`).
fn condition_value() -> Value {
    let scalar = json!({"type": ["string", "number", "boolean"]});
    json!({"oneOf": [
        scalar,
        {"type": "array", "items": scalar, "minItems": 1, "maxItems": event_map::MAX_IN_VALUES}
    ]})
}

/// Which `value` each comparison takes: none for the null tests, a list for `in`/`not_in`, a
/// scalar for the others (`event_map::check_condition`).
fn condition_ops() -> Value {
    let ops = |ops: &[FilterOp]| -> Vec<&str> { ops.iter().map(|op| op.as_str()).collect() };
    let null_tests = ops(&[FilterOp::IsNull, FilterOp::NotNull]);
    let lists = ops(&[FilterOp::In, FilterOp::NotIn]);
    let scalars: Vec<&str> = FilterOp::ALL
        .iter()
        .map(|op| op.as_str())
        .filter(|op| !null_tests.contains(op) && !lists.contains(op))
        .collect();
    json!([
        {"if": {"properties": {"op": {"enum": null_tests}}},
         "then": {"properties": {"value": {"type": "null"}}}},
        {"if": {"properties": {"op": {"enum": lists}}},
         "then": {"required": ["value"], "properties": {"value": {"type": "array"}}}},
        {"if": {"properties": {"op": {"enum": scalars}}},
         "then": {"required": ["value"], "properties": {"value": {"type": ["string", "number", "boolean"]}}}}
    ])
}

/// A name an event map may quote (a table, schema, column or field).
fn plain_name() -> Vec<Rule> {
    vec![Rule::Pattern(event_map::plain_name_pattern())]
}

/// Every rule the server checks of a request body, query or path, where the schema states it.
fn rules() -> Vec<(At, Vec<Rule>)> {
    use crate::input::rules::{distribution, spend};
    use At::{Field, Param, Schema};
    use routes::{auth, connect, connections, databases, history, queue, social};

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
        // `services/database_env.rs`, `domain/src/event_map.rs`, the payments key's shape).
        (
            Field("PaymentsRequest", "api_key"),
            vec![
                Rule::Chars(1, connections::API_KEY_MAX_CHARS),
                Rule::Pattern(payments::key_pattern()),
            ],
        ),
        (
            Field("PaymentsRequest", "default_stage"),
            vec![words(
                Stage::ALL
                    .iter()
                    .filter(|stage| PaymentStage::parse(stage.as_str()).is_some())
                    .map(|stage| stage.as_str()),
            )],
        ),
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
                        searchco::GRANT_KINDS
                            .iter()
                            .filter(|kind| sources::built_in().reads(**kind))
                            .map(|kind| kind.as_str()),
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
        // kinds' connects (`routes/social.rs`, `services/social_connect.rs`).
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
                        socialco::GRANT_KINDS
                            .iter()
                            .filter(|kind| sources::built_in().reads(**kind))
                            .map(|kind| kind.as_str()),
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
        (
            Field("SocialAdsARequest", "access_token"),
            vec![Rule::Chars(1, social::ACCESS_TOKEN_MAX_CHARS)],
        ),
        (
            Field("SocialAdsARequest", "ad_account_id"),
            vec![Rule::Chars(1, connect::CHOICE_MAX_CHARS)],
        ),
        (
            Field("SocialAdsARequest", "campaign_name_prefixes"),
            prefix_list(),
        ),
        (
            Field("CampaignFilterRequest", "campaign_name_prefixes"),
            prefix_list(),
        ),
        (
            Field("SocialAdsBRequest", "access_token"),
            vec![Rule::Chars(1, social::ACCESS_TOKEN_MAX_CHARS)],
        ),
        (
            Field("SocialAdsBRequest", "ad_account_id"),
            vec![Rule::Chars(1, connect::CHOICE_MAX_CHARS)],
        ),
        (
            Field("SocialARequest", "access_token"),
            vec![Rule::Chars(1, social::ACCESS_TOKEN_MAX_CHARS)],
        ),
        (
            Field("SocialARequest", "page_id"),
            vec![Rule::Chars(1, connect::CHOICE_MAX_CHARS)],
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
    rules.extend(dashboard_rules());
    rules.extend(growth_rules());
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

/// Writes every rule of [`rules`] into the finished document (once every route has registered
/// its operations and schemas). A rule whose place is missing (a renamed type or field) is a
/// bug: debug builds, and so every test that starts the service, stop on it.
pub fn document_constraints(openapi: &mut OpenApi) {
    let missing = apply_rules(openapi, rules());
    debug_assert!(
        missing.is_empty(),
        "constraints without a place: {missing:?}"
    );
    if !missing.is_empty() {
        tracing::error!(
            ?missing,
            "constraints without a place in the OpenAPI document"
        );
    }
}

fn apply_rules(openapi: &mut OpenApi, rules: Vec<(At, Vec<Rule>)>) -> Vec<String> {
    let components = openapi.components.get_or_insert_with(Default::default);
    // Referenced schemas (a `Secret`) are copied in where a field gets rules of its own.
    let referenced = components.schemas.clone();
    let mut missing = Vec::new();
    for (at, rules) in rules {
        let placed = match at {
            At::Field(schema, field) => match components.schemas.get_mut(schema) {
                Some(RefOr::T(Schema::Object(object))) => object
                    .properties
                    .get_mut(field)
                    .is_some_and(|property| constrain(property, &rules, &referenced)),
                _ => false,
            },
            At::Schema(schema) => match components.schemas.get_mut(schema) {
                Some(RefOr::T(Schema::Object(object))) => {
                    rules.iter().all(|rule| apply_to_object(object, rule))
                }
                _ => false,
            },
            At::Param(path, name) => {
                let mut found = false;
                if let Some(item) = openapi.paths.paths.get_mut(path) {
                    for operation in operations_of(item) {
                        for parameter in operation.parameters.iter_mut().flatten() {
                            let RefOr::T(parameter) = parameter else {
                                continue;
                            };
                            if parameter.name == name {
                                found = match &mut parameter.schema {
                                    Some(schema) => constrain(schema, &rules, &referenced),
                                    None => false,
                                };
                            }
                        }
                    }
                }
                found
            }
        };
        if !placed {
            missing.push(format!("{at:?}"));
        }
    }
    missing
}

/// Applies `rules` to one value's schema: a plain schema, the non-null side of an optional
/// one, or a referenced one copied in (keeping the field's description).
fn constrain(
    schema: &mut RefOr<Schema>,
    rules: &[Rule],
    referenced: &BTreeMap<String, RefOr<Schema>>,
) -> bool {
    if let Some((Rule::Replace(replacement), rest)) = rules.split_first() {
        let description = match schema {
            RefOr::T(Schema::Object(object)) => object.description.clone(),
            _ => None,
        };
        let Ok(RefOr::T(mut replaced)) =
            serde_json::from_value::<RefOr<Schema>>(replacement.clone())
        else {
            return false;
        };
        match &mut replaced {
            Schema::Object(object) => object.description = description,
            Schema::OneOf(one_of) => one_of.description = description,
            _ => return false,
        }
        *schema = RefOr::T(replaced);
        return rest.is_empty() || constrain(schema, rest, referenced);
    }
    match schema {
        RefOr::Ref(reference) => {
            let name = reference
                .ref_location
                .trim_start_matches("#/components/schemas/");
            let Some(RefOr::T(Schema::Object(target))) = referenced.get(name) else {
                return false;
            };
            let mut copy = target.clone();
            if !reference.description.is_empty() {
                copy.description = Some(reference.description.clone());
            }
            *schema = RefOr::T(Schema::Object(copy));
            constrain(schema, rules, referenced)
        }
        RefOr::T(Schema::Object(object)) => rules.iter().all(|rule| apply_to_object(object, rule)),
        RefOr::T(Schema::Array(array)) => rules.iter().all(|rule| match rule {
            Rule::Items(min, max) => {
                array.min_items = (*min > 0).then_some(*min);
                array.max_items = Some(*max);
                true
            }
            Rule::Each(rules) => match &mut array.items {
                ArrayItems::RefOrSchema(items) => constrain(items, rules, referenced),
                ArrayItems::False => false,
            },
            _ => false,
        }),
        RefOr::T(Schema::OneOf(one_of)) => {
            let mut values = one_of.items.iter_mut().filter(|item| !is_null(item));
            match (values.next(), values.next()) {
                (Some(value), None) => constrain(value, rules, referenced),
                _ => false,
            }
        }
        _ => false,
    }
}

fn is_null(schema: &RefOr<Schema>) -> bool {
    matches!(schema, RefOr::T(Schema::Object(object))
        if object.schema_type == SchemaType::Type(Type::Null))
}

fn allows_null(object: &Object) -> bool {
    match &object.schema_type {
        SchemaType::Type(kind) => *kind == Type::Null,
        SchemaType::Array(kinds) => kinds.contains(&Type::Null),
        SchemaType::AnyValue => true,
    }
}

fn keyword(object: &mut Object, name: &str, value: Value) {
    object
        .extensions
        .get_or_insert_with(Default::default)
        .insert(name.to_owned(), value);
}

fn apply_to_object(object: &mut Object, rule: &Rule) -> bool {
    match rule {
        Rule::Chars(min, max) => {
            object.min_length = (*min > 0).then_some(*min);
            object.max_length = Some(*max);
        }
        Rule::Pattern(pattern) => object.pattern = Some(pattern.clone()),
        Rule::Range(min, max) => {
            object.minimum = Some(Number::from(*min));
            object.maximum = Some(Number::from(*max));
        }
        Rule::Min(min) => object.minimum = Some(Number::from(*min)),
        Rule::Default(value) => object.default = Some(value.clone()),
        Rule::OneOf(values) => {
            let mut values: Vec<Value> = values.iter().map(|v| json!(v)).collect();
            if allows_null(object) {
                values.push(Value::Null);
            }
            object.enum_values = Some(values);
        }
        Rule::MaxBytes(max) => keyword(object, "x-max-bytes", json!(max)),
        Rule::Format(format) => object.format = Some(format.clone()),
        Rule::NoneOf(values) => keyword(object, "not", json!({ "enum": values })),
        Rule::NotPrefix(prefix) => {
            keyword(object, "not", json!({ "pattern": format!("^{prefix}") }));
        }
        Rule::Keys(keys) => {
            let names = ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some(keys.clone()))
                .build();
            object.property_names = Some(Box::new(Schema::Object(names)));
        }
        Rule::Values(rules) => {
            let Some(values) = object.additional_properties.as_deref_mut() else {
                return false;
            };
            let AdditionalProperties::RefOr(values) = values else {
                return false;
            };
            return constrain(values, rules, &BTreeMap::new());
        }
        Rule::AnyRequired(fields) => {
            let each: Vec<Value> = fields.iter().map(|f| json!({ "required": [f] })).collect();
            keyword(object, "anyOf", Value::Array(each));
        }
        Rule::Requires(field, needs) => {
            keyword(object, "dependentRequired", json!({ *field: [needs] }));
        }
        Rule::Keyword(name, value) => keyword(object, name, value.clone()),
        Rule::Items(..) | Rule::Replace(_) | Rule::Each(_) => return false,
    }
    true
}
