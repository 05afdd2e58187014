//! GET /openapi.json: version, every implemented operation documented, every documented
//! operation served with the documented auth, every rule the server checks of a request stated
//! in it; and the two migration sets kept in step.

use std::collections::BTreeSet;

use payback_testkit::spec::product_row_fields;
use payback_testkit::{Backend, Reply, TEST_PASSWORD, TestApp, backend_tests, per_backend};
use serde_json::{Value, json};

/// Every (method, path) the service implements at this version.
const IMPLEMENTED: &[(&str, &str)] = &[
    ("post", "/auth/signup"),
    ("post", "/auth/lead-prompt"),
    ("post", "/auth/agent-signup"),
    ("post", "/auth/claim-link"),
    ("get", "/auth/claim"),
    ("post", "/auth/claim"),
    ("get", "/auth/verify"),
    ("post", "/auth/login"),
    ("post", "/auth/logout"),
    ("get", "/auth/me"),
    ("post", "/auth/me"),
    ("get", "/auth/accounts"),
    ("post", "/auth/accounts"),
    ("post", "/auth/switch-account"),
    ("get", "/auth/sso/start"),
    ("get", "/auth/sso/callback"),
    ("post", "/auth/sso/complete"),
    ("get", "/auth/keys"),
    ("post", "/auth/keys"),
    ("post", "/auth/keys/{id}/revoke"),
    ("get", "/auth/invite"),
    ("post", "/auth/accept-invite"),
    ("get", "/team"),
    ("post", "/team/invites"),
    ("post", "/team/{id}/disable"),
    ("post", "/team/{id}/enable"),
    ("post", "/team/{id}/role"),
    ("get", "/portfolio"),
    ("post", "/products"),
    ("get", "/products/{slug}"),
    ("post", "/products/{slug}"),
    ("post", "/products/{slug}/onboarding-complete"),
    ("get", "/history"),
    ("get", "/svc.js"),
    ("post", "/products/{slug}/events"),
    ("post", "/t/events"),
    ("get", "/products/{slug}/tracking-key"),
    ("post", "/products/{slug}/tracking-key"),
    ("post", "/products/{slug}/tracking/gtm-deploy"),
    ("get", "/products/{slug}/attribution"),
    ("get", "/products/{slug}/attribution/sales"),
    ("get", "/products/{slug}/attribution/ads"),
    ("get", "/products/{slug}/timeseries"),
    ("get", "/products/{slug}/social"),
    ("get", "/products/{slug}/demand"),
    ("get", "/products/{slug}/funnel"),
    ("get", "/products/{slug}/funnel/series"),
    ("get", "/products/{slug}/funnel/definition"),
    ("post", "/products/{slug}/funnel/definition"),
    ("get", "/products/{slug}/conversions"),
    ("post", "/products/{slug}/conversions"),
    ("post", "/products/{slug}/conversions/{key}/delete"),
    ("get", "/products/{slug}/conversions/report"),
    ("get", "/products/{slug}/payback"),
    ("get", "/products/{slug}/health-report"),
    ("get", "/products/{slug}/growth-actions"),
    ("post", "/products/{slug}/growth-actions/{id}/prompt"),
    ("get", "/products/{slug}/export/events.csv"),
    ("get", "/products/{slug}/export/transactions.csv"),
    ("get", "/queue"),
    ("post", "/queue/{id}/approve"),
    ("post", "/queue/{id}/reject"),
    ("post", "/queue/{id}/snooze"),
    ("post", "/queue/{id}/restore"),
    ("get", "/products/{slug}/spend"),
    ("post", "/products/{slug}/proposals"),
    ("post", "/chat"),
    ("post", "/products/{slug}/chat"),
    ("get", "/products/{slug}/policy"),
    ("post", "/products/{slug}/policy"),
    ("get", "/policy"),
    ("post", "/policy"),
    ("post", "/distribution"),
    ("get", "/products/{slug}/distribution"),
    ("get", "/products/{slug}/dashboards"),
    ("post", "/products/{slug}/dashboards"),
    ("post", "/products/{slug}/dashboards/generate"),
    ("post", "/dashboards/{id}"),
    ("post", "/dashboards/{id}/delete"),
    ("get", "/products/{slug}/landing-pages"),
    ("post", "/products/{slug}/landing-pages"),
    ("get", "/products/{slug}/landing-pages/filters"),
    ("post", "/products/{slug}/landing-pages/filters"),
    ("post", "/products/{slug}/landing-pages/filters/{id}"),
    ("delete", "/products/{slug}/landing-pages/filters/{id}"),
    ("get", "/products/{slug}/landing-pages/{id}"),
    ("delete", "/products/{slug}/landing-pages/{id}"),
    ("get", "/billing"),
    ("post", "/billing/checkout"),
    ("post", "/billing/portal"),
    ("post", "/billing/webhook"),
    ("post", "/products/{slug}/landing-pages/{id}/analyze"),
    ("get", "/products/{slug}/scorecard"),
    ("post", "/products/{slug}/scorecard"),
    ("get", "/products/{slug}/scorecard/catalog"),
    ("get", "/products/{slug}/scorecard/insights"),
    ("post", "/products/{slug}/scorecard/template"),
    ("post", "/products/{slug}/scorecard/values"),
    ("post", "/products/{slug}/scorecard/suggest"),
    ("get", "/products/{slug}/scorecard/export.csv"),
    ("get", "/products/{slug}/scorecard/export.xlsx"),
    ("post", "/products/{slug}/scorecard/share"),
    ("post", "/products/{slug}/scorecard/share/revoke"),
    ("post", "/products/{slug}/scorecard/sheets/sync"),
    ("get", "/t/scorecard/{token}"),
    ("post", "/connect/searchco/service-account/start"),
    ("post", "/connect/searchco/service-account/verify"),
    ("post", "/products/{slug}/detect-integrations"),
    ("post", "/tools/detect-integrations"),
    ("get", "/health"),
    ("get", "/connections"),
    ("get", "/connect/searchco/status"),
    ("get", "/connect/socialco/status"),
    ("get", "/products/{slug}/recordings"),
    (
        "post",
        "/products/{slug}/connections/product-analytics-a/event-maps",
    ),
    ("post", "/connect/searchco/start"),
    ("post", "/connect/searchco/select"),
    ("post", "/connect/socialco/start"),
    ("post", "/connect/socialco/select"),
    ("get", "/products/{slug}/connections/search-ads/url-suffix"),
    ("post", "/products/{slug}/connections/search-ads/url-suffix"),
    ("post", "/products/{slug}/connections/{kind}/test"),
    ("post", "/products/{slug}/connections/{kind}/sync"),
    ("post", "/products/{slug}/connections/{kind}/disconnect"),
];

/// The spec's public endpoints (no credential) among those implemented.
const PUBLIC: &[(&str, &str)] = &[
    ("post", "/auth/signup"),
    ("post", "/auth/lead-prompt"),
    ("post", "/auth/agent-signup"),
    ("get", "/auth/verify"),
    ("post", "/auth/login"),
    ("get", "/auth/invite"),
    ("post", "/auth/accept-invite"),
    // The claim page and its completion carry their own single-use token.
    ("get", "/auth/claim"),
    ("post", "/auth/claim"),
    ("get", "/svc.js"),
    ("post", "/t/events"),
    // The provider sends the human back here; the single-use state ties it to the flow.
    ("get", "/connect/searchco/callback"),
    ("get", "/connect/socialco/callback"),
    // The grants' confirmation pages (`auth_url`) and their forms: the state is the link.
    ("get", "/connect/searchco/confirm"),
    ("post", "/connect/searchco/confirm"),
    ("get", "/connect/socialco/confirm"),
    ("post", "/connect/socialco/confirm"),
    // Sign in with SSO: the provider's redirects, the ticket and the button's switch.
    ("get", "/auth/sso/start"),
    ("get", "/auth/sso/callback"),
    ("post", "/auth/sso/complete"),
    ("get", "/auth/sso/config"),
    // A shared scorecard: the share token in the path is the credential.
    ("get", "/t/scorecard/{token}"),
    // Stripe's signature is the webhook's credential.
    ("post", "/billing/webhook"),
];

const HTTP_METHODS: &[&str] = &["get", "put", "post", "delete", "options", "head", "patch"];

async fn document(app: &TestApp) -> Value {
    let reply = app.get("/openapi.json", None).await;
    let content_type = reply.header("content-type").unwrap_or_default().to_owned();
    assert!(
        content_type.starts_with("application/json"),
        "{content_type}"
    );
    reply.expect(200).clone()
}

/// Every documented (method, path).
fn operations(doc: &Value) -> Vec<(String, String, Value)> {
    let mut found = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            if HTTP_METHODS.contains(&method.as_str()) {
                found.push((method.clone(), path.clone(), operation.clone()));
            }
        }
    }
    found
}

async fn document_has_version_and_frame(app: TestApp) {
    let doc = document(&app).await;
    assert_eq!(doc["info"]["version"], "0.2.0");
    assert!(
        doc["openapi"].as_str().unwrap().starts_with("3."),
        "{}",
        doc["openapi"]
    );
    assert!(doc["info"]["title"].is_string());
    assert_eq!(
        doc["components"]["securitySchemes"]["bearer"]["type"],
        "http"
    );
    assert_eq!(
        doc["components"]["securitySchemes"]["bearer"]["scheme"],
        "bearer"
    );
    assert_eq!(
        doc["components"]["schemas"]["ErrorBody"]["required"],
        serde_json::json!(["error"])
    );
    // Paths carry no version segment.
    for (_, path, _) in operations(&doc) {
        assert!(
            !path.starts_with("/v1") && !path.starts_with("/v0"),
            "{path}"
        );
    }
    // Public: no bearer needed to read the document.
    let again = app.get("/openapi.json", None).await;
    assert_eq!(again.expect(200)["info"]["version"], "0.2.0");
}

async fn every_implemented_operation_is_documented(app: TestApp) {
    let doc = document(&app).await;
    let documented: BTreeSet<(String, String)> = operations(&doc)
        .into_iter()
        .map(|(method, path, _)| (method, path))
        .collect();
    let missing: Vec<_> = IMPLEMENTED
        .iter()
        .filter(|(method, path)| !documented.contains(&((*method).to_owned(), (*path).to_owned())))
        .collect();
    assert!(missing.is_empty(), "undocumented: {missing:?}");

    for (method, path, operation) in operations(&doc) {
        let responses = operation["responses"].as_object().unwrap();
        assert!(
            responses
                .keys()
                .any(|code| code.starts_with('2') || code.starts_with('3')),
            "{method} {path} documents no success"
        );
        let is_public = PUBLIC.contains(&(method.as_str(), path.as_str()));
        let secured = operation["security"]
            .as_array()
            .is_some_and(|s| !s.is_empty());
        assert_eq!(
            secured, !is_public,
            "{method} {path}: documented security does not match the spec's auth level"
        );
        // Path parameters are declared.
        for segment in path.split('/') {
            if let Some(name) = segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                let declared = operation["parameters"].as_array().is_some_and(|params| {
                    params
                        .iter()
                        .any(|p| p["name"] == name && p["in"] == "path")
                });
                assert!(
                    declared,
                    "{method} {path}: path parameter {name} undeclared"
                );
            }
        }
    }
}

async fn secured_operations_document_their_401(app: TestApp) {
    let doc = document(&app).await;
    let undocumented: Vec<String> = operations(&doc)
        .into_iter()
        .filter(|(_, _, operation)| {
            operation["security"]
                .as_array()
                .is_some_and(|s| !s.is_empty())
                && operation["responses"].get("401").is_none()
        })
        .map(|(method, path, _)| format!("{method} {path}"))
        .collect();
    assert!(
        undocumented.is_empty(),
        "these need a bearer (and answer 401 without one) but document no 401: {undocumented:?}"
    );
}

/// Every rate-limited operation documents its 429 with `Retry-After`, the header the server
/// sends with it, in whole seconds; no other answer claims it.
async fn rate_limited_operations_document_retry_after(app: TestApp) {
    let doc = document(&app).await;
    let mut limited = 0;
    for (method, path, operation) in operations(&doc) {
        let responses = operation["responses"].as_object().unwrap();
        for (status, response) in responses {
            let header = &response["headers"]["Retry-After"];
            if status == "429" {
                limited += 1;
                assert_eq!(
                    header["schema"]["type"], "integer",
                    "{method} {path}: {header}"
                );
            } else {
                assert!(header.is_null(), "{method} {path} {status}: {header}");
            }
        }
    }
    assert!(limited >= 7, "rate-limited operations: {limited}");
}

/// Every route answers 400 to a path or query holding `%00` before its handler runs, so every
/// operation documents a 400 (its own, or that one).
async fn every_operation_documents_its_400(app: TestApp) {
    let doc = document(&app).await;
    let undocumented: Vec<String> = operations(&doc)
        .into_iter()
        .filter(|(_, _, operation)| operation["responses"].get("400").is_none())
        .map(|(method, path, _)| format!("{method} {path}"))
        .collect();
    assert!(
        undocumented.is_empty(),
        "no 400 documented: {undocumented:?}"
    );
    for (method, path, operation) in operations(&doc) {
        let refused = &operation["responses"]["400"];
        assert_eq!(
            refused["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/ErrorBody",
            "{method} {path}: {refused}"
        );
    }
    let accounts = &doc["paths"]["/auth/accounts"]["get"]["responses"]["400"];
    assert_eq!(
        accounts["description"], "The path or query holds `%00` (a NUL character)",
        "GET /auth/accounts has no 400 of its own"
    );
}

async fn product_and_history_schemas_match_the_spec(app: TestApp) {
    let doc = document(&app).await;
    let schemas = &doc["components"]["schemas"];
    let properties = |name: &str| -> BTreeSet<String> {
        schemas[name]["properties"]
            .as_object()
            .unwrap_or_else(|| panic!("no schema {name}"))
            .keys()
            .cloned()
            .collect()
    };
    let set =
        |items: &[&str]| -> BTreeSet<String> { items.iter().map(|s| (*s).to_owned()).collect() };
    assert_eq!(properties("ProductView"), set(&product_row_fields()));
    assert_eq!(
        properties("HistoryEvent"),
        set(&[
            "id",
            "occurred_at",
            "actor",
            "via",
            "action",
            "product_slug",
            "subject_ref",
            "card_headline",
            "card_type",
            "payload",
        ])
    );
    assert_eq!(
        properties("CreatedProduct"),
        set(&["id", "slug", "name", "currency", "stage"])
    );
    // The spec's five fields, plus the stage and gate owners may now edit too.
    assert_eq!(
        properties("EditedProduct"),
        set(&[
            "id",
            "slug",
            "name",
            "currency",
            "domain",
            "stage",
            "gate_due_date",
            "gate_result"
        ])
    );
    let required: BTreeSet<String> = schemas["CreateProductRequest"]["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(required, set(&["name", "slug"]));
    assert_eq!(
        properties("CreateProductRequest"),
        set(&["name", "slug", "domain", "currency"])
    );
    let params: BTreeSet<String> = doc["paths"]["/history"]["get"]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect();
    // The spec's three, and `include` (account events for owners; see docs/api.md).
    assert_eq!(params, set(&["product", "days", "limit", "include"]));
}

/// Enumerations are documented with the spellings the API sends and takes, not Rust's.
async fn enums_are_documented_in_their_wire_spelling(app: TestApp) {
    let doc = document(&app).await;
    let schemas = &doc["components"]["schemas"];
    let expected = [
        ("MemberRole", vec!["owner", "member"]),
        ("MemberStatus", vec!["active", "invited", "disabled"]),
        ("Network", vec!["meta", "google"]),
        ("Proposer", vec!["keeper", "system"]),
        (
            "CardType",
            vec![
                "proposal",
                "insight",
                "alert",
                "gate_result",
                "policy_block",
            ],
        ),
        ("ProductStage", vec!["validation", "live", "killed"]),
        ("GateResult", vec!["pass", "fail", "pivot"]),
    ];
    for (name, values) in expected {
        assert_eq!(schemas[name]["enum"], json!(values), "{name}");
    }
}

async fn every_documented_operation_is_served(app: TestApp) {
    let doc = document(&app).await;
    let operations = operations(&doc);
    assert!(operations.len() >= IMPLEMENTED.len());
    for (method, path, operation) in operations {
        let concrete: String = path
            .split('/')
            .map(|segment| {
                if segment.starts_with('{') && segment.ends_with('}') {
                    segment.trim_matches(['{', '}']).to_owned()
                } else {
                    segment.to_owned()
                }
            })
            .collect::<Vec<_>>()
            .join("/");
        let http_method = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
        let reply = app.request(http_method, &concrete, None).await;
        let no_route = reply.status == 404
            && reply.body["error"]
                .as_str()
                .is_some_and(|e| e.starts_with("no route"));
        assert!(
            !no_route,
            "{method} {path} is documented but not routed: {}",
            reply.text
        );
        assert_ne!(
            reply.status, 405,
            "{method} {path} is documented but the method is not served: {}",
            reply.text
        );
        // A documented 503 (a provider not configured here, as SSO's start) is served too.
        let documented_unavailable =
            reply.status == 503 && operation["responses"].get("503").is_some();
        assert!(
            reply.status < 500 || documented_unavailable,
            "{method} {path}: {} {}",
            reply.status,
            reply.text
        );
        // The documented auth is the real auth: secured operations refuse an anonymous call.
        let secured = operation["security"]
            .as_array()
            .is_some_and(|s| !s.is_empty());
        if secured {
            assert_eq!(reply.status, 401, "{method} {path}: {}", reply.text);
        } else {
            assert_ne!(reply.status, 401, "{method} {path}: {}", reply.text);
        }
        // Operations documented with a non-JSON success (the snippet's JavaScript) answer that.
        let non_json = operation["responses"]["200"]["content"]
            .as_object()
            .is_some_and(|content| !content.contains_key("application/json"));
        // Pages documented as HTML for the status they answered (the grants' confirmation
        // pages refuse an unknown state with one) answer that.
        let documented_html = operation["responses"][reply.status.to_string()]["content"]
            .get("text/html")
            .is_some()
            && reply
                .header("content-type")
                .is_some_and(|value| value.starts_with("text/html"));
        assert!(
            non_json
                || documented_html
                || reply.status == 302
                || reply.body["error"].is_string()
                || reply.body.is_object(),
            "{method} {path}: {}",
            reply.text
        );
    }
}

backend_tests!(
    document_has_version_and_frame,
    every_implemented_operation_is_documented,
    secured_operations_document_their_401,
    rate_limited_operations_document_retry_after,
    product_and_history_schemas_match_the_spec,
    every_operation_documents_its_400,
    enums_are_documented_in_their_wire_spelling,
    every_documented_operation_is_served,
);

#[test]
fn migrations_carry_the_same_versions_on_both_backends() {
    let (sqlite, postgres) = payback_store::db::migration_versions();
    assert!(!sqlite.is_empty(), "there are migrations");
    assert_eq!(sqlite, postgres);
    let mut sorted = sqlite.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted, sqlite, "versions are unique and ascending");
}

// ---------------------------------------------------------------------------------------------
// The rules the server checks are stated in the document.
//
// Every operation with a request body or query is called with a baseline request the server
// takes, and then with one field changed at a time, the values chosen from what the document
// says of that field:
// - a stated rule (length, pattern, range, `enum`, item count, `x-max-bytes`, `format`,
//   `required`, `not`) is probed just outside (the server must answer 400 naming the field) and,
//   where the document allows it, just inside (no 400 naming the field);
// - a field whose schema states no rule gets values any string or integer may hold (empty,
//   blank, 5000 characters, non-ASCII; -1, 0, 10^15) and `null` where it is nullable, and the
//   server must not refuse them naming the field: a check the schema does not state fails here.
// The probes come from the document alone (only the baselines are written here), so the test
// holds for rules added later too; an operation added with a body, a query or a checked path
// segment fails it until it has a baseline below.
// ---------------------------------------------------------------------------------------------

/// Fields whose 400 is about the state of the service, not the shape of the value: no schema
/// can state them. Each with why.
const STATEFUL: &[(&str, &str, &str)] = &[
    (
        "/auth/claim",
        "token",
        "a single-use link token: unknown or used ones are refused",
    ),
    (
        "/auth/verify",
        "token",
        "a single-use link token: unknown or used ones are refused",
    ),
    (
        "/auth/invite",
        "token",
        "a single-use link token: unknown or used ones are refused",
    ),
    (
        "/auth/accept-invite",
        "token",
        "a single-use link token: unknown or used ones are refused",
    ),
    (
        "/auth/sso/complete",
        "token",
        "a single-use SSO ticket: unknown, used or expired ones are refused",
    ),
    (
        "/tools/detect-integrations",
        "url",
        "the page is fetched: whether a URL's host is public and answers is the state of the \
         web, not the shape of the value",
    ),
];

/// Operations whose answers say nothing about the shape of what they were sent.
const UNSHAPED: &[(&str, &str, &str)] = &[
    (
        "get",
        "/connect/searchco/callback",
        "the provider's redirect: whatever the query holds it answers a page (an unknown or \
         missing state says the link is not valid), never a refusal naming a field",
    ),
    (
        "get",
        "/connect/socialco/callback",
        "the provider's redirect, answered as the search-engine grant's",
    ),
    (
        "get",
        "/connect/searchco/confirm",
        "the grant's confirmation page: an unknown, missing, expired or used state answers a \
         page saying the link is not usable, never a refusal naming a field",
    ),
    (
        "post",
        "/connect/searchco/confirm",
        "the confirmation page's form, answered with a page as the page itself",
    ),
    (
        "get",
        "/connect/socialco/confirm",
        "the social-network grant's confirmation page, answered as the search-engine grant's",
    ),
    (
        "post",
        "/connect/socialco/confirm",
        "the social-network grant's form, answered as the search-engine grant's",
    ),
    (
        "get",
        "/auth/sso/callback",
        "the SSO provider's redirect: its refusals are about the flow (the provider's error, an \
         unknown or used state, the exchange, the ID token), never a value's shape",
    ),
];

/// Operations without a request body or query, or whose only fields are path segments the
/// server looks up (404 when unknown).
fn needs_no_probe(operation: &Value) -> bool {
    let has_query = operation["parameters"]
        .as_array()
        .is_some_and(|params| params.iter().any(|p| p["in"] == "query"));
    let has_constrained_path = operation["parameters"].as_array().is_some_and(|params| {
        params
            .iter()
            .any(|p| p["in"] == "path" && p["schema"].get("enum").is_some())
    });
    !has_query && !has_constrained_path && operation.get("requestBody").is_none()
}

/// One operation called with a baseline the server takes.
struct Probe {
    method: &'static str,
    path: &'static str,
    /// Values of the path's `{segments}`.
    segments: Vec<(&'static str, String)>,
    token: Option<String>,
    /// The baseline's query parameters.
    query: Vec<(&'static str, String)>,
    body: Option<Value>,
    /// Fields set in the body before probing a field (rules that hold only together).
    with: Vec<(&'static str, Value)>,
}

impl Probe {
    fn new(method: &'static str, path: &'static str, token: Option<&str>) -> Self {
        Self {
            method,
            path,
            segments: Vec::new(),
            token: token.map(str::to_owned),
            query: Vec::new(),
            body: None,
            with: Vec::new(),
        }
    }

    fn query(mut self, name: &'static str, value: &str) -> Self {
        self.query.push((name, value.to_owned()));
        self
    }

    fn body(mut self, body: Value) -> Self {
        self.body = Some(body);
        self
    }

    fn at(mut self, name: &'static str, value: &str) -> Self {
        self.segments.push((name, value.to_owned()));
        self
    }

    /// When probing `field` (its path in errors), the body first gets `patch`'s top-level keys.
    fn with(mut self, field: &'static str, patch: Value) -> Self {
        self.with.push((field, patch));
        self
    }

    fn concrete(&self, segments: &[(&str, String)]) -> String {
        let mut path = self.path.to_owned();
        for (name, value) in segments {
            path = path.replace(&format!("{{{name}}}"), &encode_segment(value));
        }
        path
    }
}

fn encode_segment(value: &str) -> String {
    value
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// A step into a JSON body.
#[derive(Debug, Clone)]
enum Step {
    Key(String),
    Index(usize),
}

/// Where a probed value goes.
#[derive(Debug, Clone)]
enum Slot {
    Body(Vec<Step>),
    Query(String),
    Path(String),
}

/// What the probe changes.
#[derive(Debug, Clone)]
enum Change {
    Set(Value),
    Remove,
}

/// What the server must answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// 400 naming the field (for a path segment, 404 will do: nothing is there).
    Refused,
    /// Anything but a 400 naming the field.
    NotRefusedByName,
}

/// A field as the document describes it.
struct Field {
    slot: Slot,
    /// As errors name it: `events[0].name`, `days`.
    name: String,
    /// Its schema (references resolved, the non-null side of an optional).
    schema: Value,
    nullable: bool,
    /// The baseline's value here, if any.
    baseline: Option<Value>,
}

fn field_name(steps: &[Step]) -> String {
    let mut name = String::new();
    for step in steps {
        match step {
            Step::Key(key) if name.is_empty() => name.push_str(key),
            Step::Key(key) => {
                name.push('.');
                name.push_str(key);
            }
            Step::Index(index) => name.push_str(&format!("[{index}]")),
        }
    }
    name
}

/// Follows `$ref`s and takes the non-null side of an optional: (schema, nullable).
fn resolve(doc: &Value, schema: &Value) -> (Value, bool) {
    if let Some(reference) = schema["$ref"].as_str() {
        let name = reference.trim_start_matches("#/components/schemas/");
        let (resolved, nullable) = resolve(doc, &doc["components"]["schemas"][name]);
        return (resolved, nullable);
    }
    if let Some(options) = schema["oneOf"].as_array() {
        let (nulls, others): (Vec<&Value>, Vec<&Value>) =
            options.iter().partition(|option| option["type"] == "null");
        if nulls.len() == 1 && others.len() == 1 {
            return (resolve(doc, others[0]).0, true);
        }
    }
    let nullable = match &schema["type"] {
        Value::Array(types) => types.iter().any(|t| t == "null"),
        _ => false,
    } || schema["enum"]
        .as_array()
        .is_some_and(|values| values.contains(&Value::Null));
    (schema.clone(), nullable)
}

fn kind_of(schema: &Value) -> &str {
    match &schema["type"] {
        Value::String(kind) => kind,
        Value::Array(kinds) => kinds
            .iter()
            .filter_map(Value::as_str)
            .find(|kind| *kind != "null")
            .unwrap_or(""),
        _ if schema.get("enum").is_some() => "enum",
        _ => "",
    }
}

/// Every field of an object schema, and of the objects and first array items the baseline
/// holds inside it.
fn body_fields(
    doc: &Value,
    schema: &Value,
    baseline: &Value,
    steps: &[Step],
    out: &mut Vec<Field>,
) {
    let (schema, _) = resolve(doc, schema);
    let Some(properties) = schema["properties"].as_object() else {
        return;
    };
    for (key, property) in properties {
        let mut here = steps.to_vec();
        here.push(Step::Key(key.clone()));
        let (resolved, nullable) = resolve(doc, property);
        let value = baseline.get(key).cloned();
        match (&value, kind_of(&resolved)) {
            (Some(inner @ Value::Object(_)), "object") => {
                body_fields(doc, &resolved, inner, &here, out);
            }
            (Some(Value::Array(items)), "array") => {
                if let Some(first @ Value::Object(_)) = items.first() {
                    let mut item = here.clone();
                    item.push(Step::Index(0));
                    body_fields(doc, &resolved["items"], first, &item, out);
                }
            }
            _ => {}
        }
        out.push(Field {
            name: field_name(&here),
            slot: Slot::Body(here),
            schema: resolved,
            nullable,
            baseline: value,
        });
    }
}

/// `n` characters matching `pattern` (when there is one), if a plain filler does.
fn filler(n: usize, pattern: Option<&regex::Regex>) -> Option<String> {
    ["a", "A", "1"]
        .iter()
        .map(|c| c.repeat(n))
        .find(|text| pattern.is_none_or(|re| re.is_match(text)))
}

/// The probes of one field: (value change, expectation, what it shows).
fn probes(field: &Field) -> Vec<(Change, Expect, String)> {
    let schema = &field.schema;
    let mut out: Vec<(Change, Expect, String)> = Vec::new();
    let mut refused = |value: Value, why: &str| {
        out.push((Change::Set(value), Expect::Refused, why.to_owned()));
    };
    let kind = kind_of(schema);
    let values = schema["enum"].as_array().cloned();
    let mut taken: Vec<(Value, String)> = Vec::new();
    if let Some(values) = &values {
        refused(json!("not-a-listed-value"), "outside `enum`");
        for value in values.iter().filter(|v| !v.is_null()) {
            taken.push((value.clone(), "listed in `enum`".to_owned()));
        }
    } else if kind == "string" {
        let pattern = schema["pattern"].as_str().map(|p| {
            regex::Regex::new(p).unwrap_or_else(|err| panic!("{}: {p}: {err}", field.name))
        });
        let min = schema["minLength"].as_u64().map(|n| n as usize);
        let max = schema["maxLength"].as_u64().map(|n| n as usize);
        let format = schema["format"].as_str().filter(|f| *f != "password");
        let constrained = min.is_some() || max.is_some() || pattern.is_some() || format.is_some();
        let fits = |text: &str| {
            let n = text.chars().count();
            min.is_none_or(|min| n >= min) && max.is_none_or(|max| n <= max)
        };
        if let Some(max) = max {
            refused(json!("a".repeat(max + 1)), "over `maxLength`");
            if let Some(text) = filler(max, pattern.as_ref()).filter(|_| format.is_none()) {
                taken.push((json!(text), "at `maxLength`".to_owned()));
            }
        }
        if let Some(min) = min.filter(|min| *min > 0) {
            refused(json!("a".repeat(min - 1)), "under `minLength`");
            if let Some(text) = filler(min, pattern.as_ref()).filter(|_| format.is_none()) {
                taken.push((json!(text), "at `minLength`".to_owned()));
            }
        }
        if let Some(re) = &pattern {
            let blank = " ".repeat(min.unwrap_or(1).max(1));
            let candidates = [
                "nope", "a b", "A", "-", "é", "1a", "a.b", "ftp://x", " ", &blank, "",
            ];
            let violating = candidates
                .into_iter()
                .find(|text| fits(text) && !re.is_match(text));
            if let Some(text) = violating {
                refused(json!(text), "against `pattern`");
            }
        }
        if format.is_some() {
            refused(json!("nope"), "against `format`");
        }
        if let Some(not) = schema.get("not") {
            for value in not["enum"].as_array().into_iter().flatten() {
                refused(value.clone(), "listed in `not`");
            }
            if let Some(prefix) = not["pattern"].as_str().and_then(|p| p.strip_prefix('^')) {
                let text = format!("{prefix}X");
                if pattern.as_ref().is_none_or(|re| re.is_match(&text)) {
                    refused(json!(text), "against `not.pattern`");
                }
            }
        }
        if !constrained {
            for text in ["", " ", "é", &"x".repeat(5000)] {
                taken.push((json!(text), "no stated rule".to_owned()));
            }
        }
    } else if kind == "integer" {
        let min = schema["minimum"].as_i64();
        let max = schema["maximum"].as_i64();
        let constrained = min.is_some() || max.is_some();
        if let Some(min) = min {
            refused(json!(min - 1), "under `minimum`");
            taken.push((json!(min), "at `minimum`".to_owned()));
        }
        if let Some(max) = max {
            refused(json!(max + 1), "over `maximum`");
            taken.push((json!(max), "at `maximum`".to_owned()));
        }
        if !constrained {
            for number in [-1_i64, 0, 1_000_000_000_000_000] {
                taken.push((json!(number), "no stated rule".to_owned()));
            }
        }
    } else if kind == "array" {
        let min = schema["minItems"].as_u64().map(|n| n as usize);
        let max = schema["maxItems"].as_u64().map(|n| n as usize);
        let first = field
            .baseline
            .as_ref()
            .and_then(|items| items.as_array())
            .and_then(|items| items.first())
            .cloned();
        if let Some(first) = first {
            let copies = |n: usize| Value::Array(vec![first.clone(); n]);
            if let Some(max) = max {
                refused(copies(max + 1), "over `maxItems`");
                taken.push((copies(max), "at `maxItems`".to_owned()));
            }
            if let Some(min) = min.filter(|min| *min > 0) {
                refused(copies(min - 1), "under `minItems`");
                taken.push((copies(min), "at `minItems`".to_owned()));
            }
        }
        if min.is_none_or(|min| min == 0) {
            taken.push((json!([]), "no stated `minItems`".to_owned()));
        }
    } else if kind == "object" {
        if let Some(max) = schema["x-max-bytes"].as_u64().map(|n| n as usize) {
            // `{"k":"..."}` is 8 bytes around the text.
            refused(json!({ "k": "a".repeat(max - 7) }), "over `x-max-bytes`");
            taken.push((
                json!({ "k": "a".repeat(max - 8) }),
                "at `x-max-bytes`".to_owned(),
            ));
        } else if schema.get("properties").is_none() {
            taken.push((json!({}), "no stated rule".to_owned()));
        }
    }
    if field.nullable {
        taken.push((Value::Null, "nullable".to_owned()));
    }
    out.extend(
        taken
            .into_iter()
            .map(|(value, why)| (Change::Set(value), Expect::NotRefusedByName, why)),
    );
    out
}

/// Whether an error answer names `field`.
fn names(reply: &Reply, field: &str, slot: &Slot) -> bool {
    let Some(error) = reply.body["error"].as_str() else {
        return false;
    };
    let leaf = field.rsplit(['.', ']']).next().unwrap_or(field);
    let named = error.split("; ").any(|part| {
        part.starts_with(&format!("{field}:")) || part.starts_with(&format!("{field} "))
    }) || error.contains(&format!("missing field `{leaf}`"));
    // Query strings that do not parse answer `invalid query: ...`, naming the value only.
    named || (matches!(slot, Slot::Query(_)) && error.starts_with("invalid query"))
}

fn set_at(body: &mut Value, steps: &[Step], change: &Change) {
    let (last, parents) = steps.split_last().expect("a field");
    let mut here = body;
    for step in parents {
        here = match step {
            Step::Key(key) => &mut here[key.as_str()],
            Step::Index(index) => &mut here[*index],
        };
    }
    match (last, change) {
        (Step::Key(key), Change::Set(value)) => here[key.as_str()] = value.clone(),
        (Step::Key(key), Change::Remove) => {
            if let Some(object) = here.as_object_mut() {
                object.remove(key);
            }
        }
        (Step::Index(index), Change::Set(value)) => here[*index] = value.clone(),
        (Step::Index(_), Change::Remove) => {}
    }
}

/// Where `steps` leads in `body`, the container's parent steps.
fn container<'a>(body: &'a mut Value, steps: &[Step]) -> &'a mut Value {
    let mut here = body;
    for step in steps {
        here = match step {
            Step::Key(key) => &mut here[key.as_str()],
            Step::Index(index) => &mut here[*index],
        };
    }
    here
}

async fn send(
    app: &TestApp,
    probe: &Probe,
    slot: &Slot,
    change: Option<&Change>,
    body: Option<Value>,
) -> Reply {
    let mut segments = probe.segments.clone();
    let mut query: Vec<(String, String)> = probe
        .query
        .iter()
        .filter(|(name, _)| {
            !matches!(slot, Slot::Query(probed) if probed == name) || change.is_none()
        })
        .map(|(name, value)| ((*name).to_owned(), value.clone()))
        .collect();
    match (slot, change) {
        (Slot::Path(name), Some(Change::Set(value))) => {
            for segment in &mut segments {
                if segment.0 == name {
                    segment.1 = value
                        .as_str()
                        .map_or_else(|| value.to_string(), str::to_owned);
                }
            }
        }
        (Slot::Query(name), Some(Change::Set(value))) if !value.is_null() => {
            let text = value
                .as_str()
                .map_or_else(|| value.to_string(), str::to_owned);
            query.push((name.clone(), text));
        }
        _ => {}
    }
    let url = app.url(&probe.concrete(&segments));
    let method = reqwest::Method::from_bytes(probe.method.to_uppercase().as_bytes()).unwrap();
    let mut request = app.client.request(method, url).query(&query);
    if let Some(token) = &probe.token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    Reply::read(request.send().await.expect("request")).await
}

/// Calls `probe`'s operation with every probe of every field the document describes; answers
/// what went against the document.
async fn probe_operation(app: &TestApp, doc: &Value, probe: &Probe) -> Vec<String> {
    let operation = &doc["paths"][probe.path][probe.method];
    assert!(
        operation.is_object(),
        "{} {} is not documented",
        probe.method,
        probe.path
    );
    let label = format!("{} {}", probe.method.to_uppercase(), probe.path);
    let mut failures = Vec::new();

    // The baseline passes every check (a vendor or a model failing after that, 502 or 503,
    // still shows the request was taken).
    let baseline = send(
        app,
        probe,
        &Slot::Query(String::new()),
        None,
        probe.body.clone(),
    )
    .await;
    if baseline.status == 400 || baseline.status == 500 {
        let stateful = STATEFUL.iter().any(|(path, field, _)| {
            *path == probe.path && names(&baseline, field, &Slot::Body(Vec::new()))
        });
        if !stateful {
            failures.push(format!(
                "{label}: the baseline is refused: {} {}",
                baseline.status, baseline.text
            ));
            return failures;
        }
    }

    let mut fields = Vec::new();
    for parameter in operation["parameters"].as_array().into_iter().flatten() {
        let name = parameter["name"].as_str().unwrap().to_owned();
        let (schema, nullable) = resolve(doc, &parameter["schema"]);
        let slot = match parameter["in"].as_str() {
            Some("query") => Slot::Query(name.clone()),
            Some("path") => Slot::Path(name.clone()),
            _ => continue,
        };
        fields.push(Field {
            slot,
            name,
            schema,
            nullable: nullable && parameter["in"] == "query",
            baseline: None,
        });
    }
    // A required query parameter left out is refused naming it.
    for parameter in operation["parameters"].as_array().into_iter().flatten() {
        if parameter["in"] == "query" && parameter["required"] == true {
            let name = parameter["name"].as_str().unwrap().to_owned();
            let slot = Slot::Query(name.clone());
            let reply = send(app, probe, &slot, Some(&Change::Remove), probe.body.clone()).await;
            if !(reply.status == 400 && names(&reply, &name, &slot)) {
                failures.push(format!(
                    "{label} {name}: `required`, but a query without it answered {} {}",
                    reply.status, reply.text
                ));
            }
        }
    }
    let body_schema = &operation["requestBody"]["content"]["application/json"]["schema"];
    if let Some(body) = &probe.body {
        body_fields(doc, body_schema, body, &[], &mut fields);
        // `required` fields, and `anyOf` lists of them, in every object the baseline holds.
        let mut objects = vec![(Vec::new(), resolve(doc, body_schema).0)];
        for field in &fields {
            if let Slot::Body(steps) = &field.slot {
                if field.schema.get("properties").is_some()
                    && field.baseline.as_ref().is_some_and(Value::is_object)
                {
                    objects.push((steps.clone(), field.schema.clone()));
                }
                if let Some(Value::Array(items)) = &field.baseline
                    && items.first().is_some_and(Value::is_object)
                {
                    let mut item = steps.clone();
                    item.push(Step::Index(0));
                    objects.push((item, resolve(doc, &field.schema["items"]).0));
                }
            }
        }
        for (steps, schema) in objects {
            for required in schema["required"].as_array().into_iter().flatten() {
                let mut at = steps.clone();
                at.push(Step::Key(required.as_str().unwrap().to_owned()));
                let name = field_name(&at);
                let mut changed = body.clone();
                set_at(&mut changed, &at, &Change::Remove);
                let reply = send(app, probe, &Slot::Body(at.clone()), None, Some(changed)).await;
                if !(reply.status == 400 && names(&reply, &name, &Slot::Body(at))) {
                    failures.push(format!(
                        "{label} {name}: `required`, but a body without it answered {} {}",
                        reply.status, reply.text
                    ));
                }
            }
            if let Some(alternatives) = schema["anyOf"].as_array() {
                let mut changed = body.clone();
                for alternative in alternatives {
                    for key in alternative["required"].as_array().into_iter().flatten() {
                        let mut at = steps.clone();
                        at.push(Step::Key(key.as_str().unwrap().to_owned()));
                        set_at(&mut changed, &at, &Change::Remove);
                    }
                }
                let reply = send(app, probe, &Slot::Body(steps.clone()), None, Some(changed)).await;
                if reply.status != 400 {
                    failures.push(format!(
                        "{label} {}: `anyOf` requires one of its fields, but a body with none answered {} {}",
                        field_name(&steps), reply.status, reply.text
                    ));
                }
            }
        }
    }

    for field in &fields {
        if STATEFUL
            .iter()
            .any(|(path, name, _)| *path == probe.path && *name == field.name)
        {
            continue;
        }
        let patch = probe
            .with
            .iter()
            .find(|(name, _)| *name == field.name)
            .map(|(_, patch)| patch.clone());
        for (change, expect, why) in probes(field) {
            let body = match (&field.slot, &probe.body) {
                (Slot::Body(steps), Some(body)) => {
                    let mut changed = body.clone();
                    // Rules that hold only together: the other fields first (not for `null`).
                    if let (Some(Value::Object(patch)), Change::Set(value)) = (&patch, &change)
                        && !value.is_null()
                    {
                        let parent = container(&mut changed, &steps[..steps.len() - 1]);
                        for (key, value) in patch {
                            parent[key.as_str()] = value.clone();
                        }
                    }
                    set_at(&mut changed, steps, &change);
                    Some(changed)
                }
                (_, body) => body.clone(),
            };
            let reply = send(app, probe, &field.slot, Some(&change), body).await;
            let named = reply.status == 400 && names(&reply, &field.name, &field.slot);
            let ok = match expect {
                Expect::Refused => {
                    named || (matches!(field.slot, Slot::Path(_)) && reply.status == 404)
                }
                Expect::NotRefusedByName => !named && reply.status != 500,
            };
            if !ok {
                let Change::Set(value) = &change else {
                    continue;
                };
                let mut shown = value.to_string();
                if shown.len() > 80 {
                    shown = format!("{}... ({} bytes)", &shown[..60], shown.len());
                }
                let verdict = match expect {
                    Expect::Refused => "the document refuses it, the server took it",
                    Expect::NotRefusedByName if why == "no stated rule" => {
                        "the server refused it, the document states no rule"
                    }
                    Expect::NotRefusedByName => "the document allows it, the server refused it",
                };
                failures.push(format!(
                    "{label} {} = {shown} ({why}): {verdict}: {} {}",
                    field.name, reply.status, reply.text
                ));
            }
        }
    }
    failures
}

/// An event map reading an `orders` table into `payment` (with every part the schema has).
fn orders_map() -> Value {
    json!({
        "table": "orders", "stage": "payment", "timestamp": "paid_at", "dedupe_key": "id",
        "revenue": { "column": "amount" },
        "filter": [{ "column": "status", "op": "eq", "value": "paid" }]
    })
}

/// Database credentials on this machine (connecting only resolves the host).
fn sql_credentials() -> Value {
    json!({ "host": "127.0.0.1", "user": "probe", "database": "probe" })
}

async fn every_checked_rule_is_stated(backend: Backend) {
    use base64::Engine;
    let app = TestApp::spawn_with(backend, |config| {
        let key = base64::engine::general_purpose::STANDARD.encode([7_u8; 32]);
        config.secret_key = Some(payback_server::secret::Secret::new(key));
        config.tracking_rate_limit_per_minute = 1_000_000;
        config.tracking_key_rate_limit_per_minute = 1_000_000;
        config.login_attempts_per_email = 1_000_000;
        // The search-engine grant's start answers 503 until its OAuth client is set.
        config.searchco_client_id = Some("probe-client".to_owned());
        config.searchco_client_secret = Some(payback_server::secret::Secret::new("probe-secret"));
    })
    .await;
    let doc = document(&app).await;

    // Who calls: an owner with products, people whose sessions the probes may change, and an
    // operator (the `*_env` names are theirs).
    let owner = app.signup_verified("owner@probe.test").await;
    for slug in ["shop", "edit-me", "db-b", "db-d"] {
        app.create_product(&owner.token, slug).await;
    }
    let me = app.signup_verified("me@probe.test").await;
    let roamer = app.signup_verified("roamer@probe.test").await;
    let ops = app.signup_verified("ops@probe.test").await;
    payback_server::operator::grant(&app.state, "ops@probe.test")
        .await
        .unwrap();
    app.create_product(&ops.token, "db-a").await;
    app.post(
        "/products/db-a/connections/sql-a",
        Some(&ops.token),
        json!({ "credentials": sql_credentials(), "event_maps": [orders_map()], "status": "pending" }),
    )
    .await
    .expect(200);
    let write_key = app
        .get("/products/shop/tracking-key", Some(&owner.token))
        .await
        .expect(200)["key"]
        .as_str()
        .unwrap()
        .to_owned();

    let owner = Some(owner.token.as_str());
    let event = json!({ "dedupe_id": "probe-1", "stage": "visit", "attribution": {} });
    let resolve = json!({});
    let mut probes = vec![
        Probe::new("post", "/auth/signup", None)
            .body(json!({ "email": "new@probe.test", "password": TEST_PASSWORD })),
        Probe::new("post", "/auth/lead-prompt", None).body(json!({ "email": "lead@probe.test" })),
        Probe::new("post", "/billing/checkout", owner).body(json!({ "plan": "indie" })),
        Probe::new("post", "/billing/webhook", None).body(json!({})),
        Probe::new("post", "/auth/agent-signup", None).body(json!({ "email": "agent@probe.test" })),
        Probe::new("get", "/auth/claim", None),
        Probe::new("post", "/auth/claim", None)
            .body(json!({ "token": "not-a-claim-token", "password": TEST_PASSWORD })),
        Probe::new("get", "/auth/verify", None),
        Probe::new("post", "/auth/sso/complete", None).body(json!({ "token": "not-a-ticket" })),
        Probe::new("post", "/auth/login", None)
            .body(json!({ "email": "owner@probe.test", "password": TEST_PASSWORD })),
        Probe::new("post", "/auth/me", Some(&me.token)).body(json!({ "name": "Probe" })),
        Probe::new("get", "/auth/keys", owner),
        Probe::new("post", "/auth/keys", owner).body(json!({ "name": "probe" })),
        Probe::new("post", "/auth/accounts", Some(&roamer.token)).body(json!({ "name": "Side project" })),
        Probe::new("post", "/auth/switch-account", Some(&roamer.token))
            .body(json!({ "account_id": "no-such-account" })),
        Probe::new("get", "/auth/invite", None),
        Probe::new("post", "/auth/accept-invite", None).body(json!({ "token": "not-an-invite-token" })),
        Probe::new("get", "/team", owner),
        Probe::new("post", "/team/invites", owner).body(json!({ "email": "invitee@probe.test" })),
        Probe::new("post", "/team/{id}/role", owner)
            .at("id", "no-such-member")
            .body(json!({ "member_role": "member" })),
        Probe::new("get", "/portfolio", owner),
        Probe::new("post", "/products", owner).body(json!({ "name": "Probe", "slug": "probe-new" })),
        Probe::new("post", "/products/{slug}", owner)
            .at("slug", "edit-me")
            .body(json!({ "name": "Edited", "currency": "USD" })),
        Probe::new("get", "/history", owner),
        Probe::new("post", "/products/{slug}/events", owner)
            .at("slug", "shop")
            .body(json!({ "events": [event.clone()] })),
        Probe::new("post", "/t/events", None).body(json!({ "key": write_key, "events": [event] })),
        Probe::new("get", "/products/{slug}/conversions", owner).at("slug", "shop"),
        Probe::new("post", "/products/{slug}/conversions", owner)
            .at("slug", "shop")
            .body(json!({ "key": "probe", "label": "Probe", "tier": "primary", "stage": "payment" }))
            .with("fixed_value_cents", json!({ "value_mode": "fixed" })),
        Probe::new("post", "/products/{slug}/funnel/definition", owner)
            .at("slug", "shop")
            .body(json!({ "steps": [{ "stage": "visit", "label": "Visit" }, { "stage": "payment", "label": "Paid" }] })),
        Probe::new("get", "/queue", owner),
        Probe::new("post", "/products/{slug}/proposals", owner)
            .at("slug", "shop")
            .body(json!({ "network": "google", "to_cents": 1000, "rationale": "It pays back within the month." })),
        // No gateway key here: a baseline the checks pass answers 503.
        Probe::new("post", "/chat", owner)
            .body(json!({ "messages": [{ "role": "user", "content": "How is spend?" }], "section": "spend" })),
        Probe::new("post", "/products/{slug}/chat", owner)
            .at("slug", "shop")
            .body(json!({ "messages": [{ "role": "user", "content": "How is spend?" }], "stream": false })),
        Probe::new("post", "/products/{slug}/policy", owner)
            .at("slug", "shop")
            .body(json!({ "adult_adjacent": false, "daily_caps": {} })),
        Probe::new("post", "/policy", owner).body(json!({ "currency": "USD" })),
        Probe::new("post", "/distribution", owner)
            .body(json!({ "productSlug": "shop", "channel": "reddit", "kind": "post" })),
        Probe::new("get", "/connections", owner),
        Probe::new("post", "/products/{slug}/connections/payments", owner)
            .at("slug", "shop")
            .body(json!({ "api_key": "sk_test_probe0123456789" })),
        // The `*_env` names are the environment path, which takes no credentials.
        Probe::new("post", "/products/{slug}/connections/sql-a", Some(&ops.token))
            .at("slug", "db-a")
            .body(json!({ "credentials": sql_credentials(), "event_maps": [orders_map()], "status": "pending" }))
            .with("host_env", json!({ "credentials": null }))
            .with("port_env", json!({ "credentials": null }))
            .with("user_env", json!({ "credentials": null }))
            .with("password_env", json!({ "credentials": null }))
            .with("database_env", json!({ "credentials": null })),
        Probe::new("post", "/products/{slug}/connections/sql-b", owner)
            .at("slug", "db-b")
            .body(json!({ "credentials": sql_credentials(), "event_maps": [orders_map()], "status": "pending" })),
        Probe::new("post", "/products/{slug}/connections/docdb", owner)
            .at("slug", "db-d")
            .body(json!({ "credentials": { "uri": "mongodb://127.0.0.1:27017/probe" },
                          "event_maps": [orders_map()], "status": "pending" })),
        Probe::new("post", "/products/{slug}/connections/{kind}/event-maps", Some(&ops.token))
            .at("slug", "db-a")
            .at("kind", "sql-a")
            .body(json!({ "event_maps": [orders_map()], "status": "pending" })),
        Probe::new("post", "/products/{slug}/connections/{kind}/suggest-mappings", Some(&ops.token))
            .at("slug", "db-a")
            .at("kind", "sql-a")
            .body(json!({ "source": "preset" })),
        Probe::new("post", "/connect/searchco/start", owner)
            .body(json!({ "product_slug": "shop", "kinds": ["search_ads"] })),
        Probe::new("get", "/connect/searchco/status", owner).query("state", "sc_unknown"),
        Probe::new("post", "/connect/searchco/select", owner).body(json!({ "state": "sc_unknown" })),
        // No service-account key here: a baseline the checks pass answers 503.
        Probe::new("post", "/connect/searchco/service-account/start", owner)
            .body(json!({ "product_slug": "shop", "kinds": ["search_console"] })),
        Probe::new("post", "/connect/searchco/service-account/verify", owner)
            .body(json!({ "product_slug": "shop", "search_console_site_url": "https://shop.example/" })),
        // An unknown product: answered before anything is fetched.
        Probe::new("post", "/products/{slug}/detect-integrations", owner)
            .at("slug", "no-such-product")
            .body(json!({ "url": "https://shop.example/" })),
        Probe::new("post", "/tools/detect-integrations", owner)
            .body(json!({ "url": "http://127.0.0.1:9/" })),
        Probe::new("post", "/connect/socialco/start", owner)
            .body(json!({ "product_slug": "shop", "kinds": ["social_ads_a", "social_a"] })),
        Probe::new("get", "/connect/socialco/status", owner).query("state", "so_unknown"),
        Probe::new("post", "/connect/socialco/select", owner).body(
            json!({ "state": "so_unknown", "ad_account_id": "1001", "page_id": "5001" }),
        ),
        // An unknown product: the baseline is answered before any vendor is asked.
        Probe::new("post", "/products/{slug}/connections/social-ads-a", owner)
            .at("slug", "no-such-product")
            .body(json!({ "access_token": "EAA-probe", "ad_account_id": "1001",
                          "campaign_name_prefixes": ["Brand"] })),
        Probe::new("post", "/products/{slug}/connections/social-ads-a/campaign-filter", owner)
            .at("slug", "no-such-product")
            .body(json!({ "campaign_name_prefixes": ["Brand"] })),
        Probe::new("post", "/products/{slug}/connections/analytics-a/event-maps", owner)
            .at("slug", "no-such-product")
            .body(json!({ "event_maps": [{ "event_name": "sign_up", "stage": "signup" }] })),
        Probe::new("post", "/products/{slug}/connections/product-analytics-a/event-maps", owner)
            .at("slug", "no-such-product")
            .body(json!({ "event_maps": [{ "event": "signed_up", "stage": "signup" }] })),
        Probe::new("post", "/products/{slug}/connections/social-ads-b", owner)
            .at("slug", "no-such-product")
            .body(json!({ "access_token": "AQX-probe", "ad_account_id": "507" })),
        Probe::new("post", "/products/{slug}/connections/social-a", owner)
            .at("slug", "no-such-product")
            .body(json!({ "access_token": "EAA-probe", "page_id": "5001" })),
    ];
    for id_path in [
        "/queue/{id}/approve",
        "/queue/{id}/reject",
        "/queue/{id}/snooze",
        "/queue/{id}/restore",
    ] {
        probes.push(
            Probe::new("post", id_path, owner)
                .at("id", "no-such-card")
                .body(resolve.clone()),
        );
    }
    for action in ["test", "sync", "disconnect"] {
        let path = match action {
            "test" => "/products/{slug}/connections/{kind}/test",
            "sync" => "/products/{slug}/connections/{kind}/sync",
            _ => "/products/{slug}/connections/{kind}/disconnect",
        };
        // A product without connections: every kind the path takes is looked up and not found.
        probes.push(
            Probe::new("post", path, owner)
                .at("slug", "edit-me")
                .at("kind", "payments"),
        );
    }
    for path in [
        "/products/{slug}/attribution",
        "/products/{slug}/attribution/sales",
        "/products/{slug}/attribution/ads",
        "/products/{slug}/timeseries",
        "/products/{slug}/demand",
        "/products/{slug}/funnel",
        "/products/{slug}/funnel/series",
        "/products/{slug}/conversions/report",
        "/products/{slug}/health-report",
        "/products/{slug}/growth-actions",
        "/products/{slug}/spend",
        "/products/{slug}/distribution",
        "/products/{slug}/social",
        "/products/{slug}/recordings",
    ] {
        probes.push(Probe::new("get", path, owner).at("slug", "shop"));
    }
    // A product without a payments connection has this action ranked.
    probes.push(
        Probe::new("post", "/products/{slug}/growth-actions/{id}/prompt", owner)
            .at("slug", "shop")
            .at("id", "connect_payments:payments")
            .body(json!({ "tool": "agent_b", "days": 30 })),
    );

    // Dashboards, on a product of their own (every accepted probe creates one). A widget's
    // extra fields are probed on a widget of the type that takes them, `layout.x` on a widget
    // narrow enough for the last column, and `prompt` where no spec makes it ignored.
    app.post(
        "/products",
        owner,
        json!({ "name": "Boards", "slug": "boards" }),
    )
    .await
    .expect(200);
    let board = app
        .post(
            "/products/boards/dashboards",
            owner,
            json!({ "name": "Board" }),
        )
        .await
        .expect(200)["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let spec = json!({ "widgets": [{ "id": "line", "type": "timeseries", "series": "spend", "days": 30,
        "title": "Spend", "size": "md", "layout": { "x": 0, "y": 0, "w": 6, "h": 4 } }] });
    let widget_types = |probe: Probe| {
        probe
            .with(
                "spec.widgets[0].metric",
                json!({ "type": "metric", "series": null, "days": null }),
            )
            .with(
                "spec.widgets[0].measure",
                json!({ "type": "breakdown", "series": null }),
            )
            .with(
                "spec.widgets[0].text",
                json!({ "type": "note", "series": null, "days": null }),
            )
            .with("spec.widgets[0].layout.x", json!({ "w": 1 }))
    };
    probes.push(widget_types(
        Probe::new("post", "/products/{slug}/dashboards", owner)
            .at("slug", "boards")
            .body(json!({ "name": "Board", "description": "d", "spec": spec.clone(), "prompt": "cac" }))
            .with("prompt", json!({ "spec": null })),
    ));
    probes.push(
        Probe::new("post", "/products/{slug}/dashboards/generate", owner)
            .at("slug", "boards")
            .body(json!({ "prompt": "cac and ads" })),
    );
    probes.push(widget_types(
        Probe::new("post", "/dashboards/{id}", owner)
            .at("id", &board)
            .body(json!({ "name": "Board", "description": "d", "spec": spec })),
    ));

    // Landing pages on `shop` (no domain: any host), with a page and a filter to address.
    let landing_page = app
        .post(
            "/products/shop/landing-pages",
            owner,
            json!({ "url": "https://shop.test/probe" }),
        )
        .await
        .expect(200)["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let landing_filter = app
        .post(
            "/products/shop/landing-pages/filters",
            owner,
            json!({ "pattern": "/probe" }),
        )
        .await
        .expect(200)["id"]
        .as_str()
        .unwrap()
        .to_owned();
    probes.push(Probe::new("get", "/products/{slug}/landing-pages", owner).at("slug", "shop"));
    probes.push(
        Probe::new("get", "/products/{slug}/landing-pages/{id}", owner)
            .at("slug", "shop")
            .at("id", &landing_page),
    );
    probes.push(
        Probe::new("post", "/products/{slug}/landing-pages", owner)
            .at("slug", "shop")
            .body(json!({ "url": "https://shop.test/probe-new" })),
    );
    probes.push(
        Probe::new("post", "/products/{slug}/landing-pages/filters", owner)
            .at("slug", "shop")
            .body(json!({ "pattern": "/x", "enabled": true })),
    );
    probes.push(
        Probe::new("post", "/products/{slug}/landing-pages/filters/{id}", owner)
            .at("slug", "shop")
            .at("id", &landing_filter)
            .body(json!({ "pattern": "/y", "enabled": false })),
    );

    // The scorecard: a layout with a typed row first, so the typed cells' baseline is taken;
    // the layout and template probes come after the cells'.
    app.post(
        "/products/shop/scorecard",
        owner,
        json!({ "sections": [{ "label": "Typed", "rows": [{ "metric": "mrr", "label": "MRR", "manual": true }] }] }),
    )
    .await
    .expect(200);
    probes.push(
        Probe::new("post", "/products/{slug}/scorecard/values", owner)
            .at("slug", "shop")
            .body(json!({ "cells": [{ "metric": "mrr", "week": "2026-W46", "value": 1 }] })),
    );
    for path in [
        "/products/{slug}/scorecard",
        "/products/{slug}/scorecard/insights",
        "/products/{slug}/scorecard/export.csv",
        "/products/{slug}/scorecard/export.xlsx",
    ] {
        probes.push(Probe::new("get", path, owner).at("slug", "shop"));
    }
    probes.push(
        Probe::new("post", "/products/{slug}/scorecard/suggest", owner)
            .at("slug", "shop")
            .body(json!({ "prompt": "weekly" })),
    );
    probes.push(
        Probe::new("post", "/products/{slug}/scorecard", owner)
            .at("slug", "shop")
            .body(json!({ "sections": [{ "label": "Funnel", "rows": [{ "metric": "visits" }] }] })),
    );
    probes.push(
        Probe::new("post", "/products/{slug}/scorecard/template", owner)
            .at("slug", "shop")
            .body(json!({ "template": "default" })),
    );

    // A kind's connect documents an example body in its plug-in; it is the baseline (on a
    // product of no one, so no vendor is asked: the shape checks come first), and a kind added
    // later needs no line here.
    let written: BTreeSet<(String, String)> = probes
        .iter()
        .map(|p| (p.method.to_owned(), p.path.to_owned()))
        .collect();
    for (method, path, operation) in operations(&doc) {
        if written.contains(&(method.clone(), path.clone())) {
            continue;
        }
        if let Some(example) = documented_example(&doc, &operation) {
            let method: &'static str = Box::leak(method.into_boxed_str());
            let path: &'static str = Box::leak(path.into_boxed_str());
            probes.push(
                Probe::new(method, path, owner)
                    .at("slug", "no-such-product")
                    .body(example),
            );
        }
    }

    // Every operation with a body, a query or a checked path segment is probed.
    let probed: BTreeSet<(String, String)> = probes
        .iter()
        .map(|p| (p.method.to_owned(), p.path.to_owned()))
        .chain(
            UNSHAPED
                .iter()
                .map(|(method, path, _)| ((*method).to_owned(), (*path).to_owned())),
        )
        .collect();
    let unprobed: Vec<String> = operations(&doc)
        .into_iter()
        .filter(|(method, path, operation)| {
            !needs_no_probe(operation) && !probed.contains(&(method.clone(), path.clone()))
        })
        .map(|(method, path, _)| format!("{method} {path}"))
        .collect();
    assert!(
        unprobed.is_empty(),
        "give these a baseline to probe: {unprobed:?}"
    );

    let mut failures = Vec::new();
    for probe in &probes {
        failures.extend(probe_operation(&app, &doc, probe).await);
    }
    assert!(
        failures.is_empty(),
        "{} answers disagree with /openapi.json:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

per_backend!(every_checked_rule_is_stated);

/// The example a product-scoped operation's request body documents (`example`, or the first of
/// `examples`), when its only path segment is the product's slug.
fn documented_example(doc: &Value, operation: &Value) -> Option<Value> {
    let only_slug = operation["parameters"].as_array().is_some_and(|params| {
        params
            .iter()
            .filter(|p| p["in"] == "path")
            .all(|p| p["name"] == "slug")
    });
    if !only_slug {
        return None;
    }
    let schema = &operation["requestBody"]["content"]["application/json"]["schema"];
    let schema = match schema["$ref"].as_str() {
        Some(reference) => {
            let name = reference.rsplit('/').next()?;
            &doc["components"]["schemas"][name]
        }
        None => schema,
    };
    schema
        .get("example")
        .or_else(|| schema["examples"].get(0))
        .cloned()
}
