//! GET /openapi.json: version, every implemented operation documented, every documented
//! operation served with the documented auth; and the two migration sets kept in step.

use std::collections::BTreeSet;

use payback_testkit::spec::product_row_fields;
use payback_testkit::{TestApp, backend_tests};
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
    ("get", "/products/{slug}/attribution"),
    ("get", "/products/{slug}/attribution/sales"),
    ("get", "/products/{slug}/attribution/ads"),
    ("get", "/products/{slug}/timeseries"),
    ("get", "/products/{slug}/funnel"),
    ("get", "/products/{slug}/funnel/series"),
    ("get", "/products/{slug}/funnel/definition"),
    ("post", "/products/{slug}/funnel/definition"),
    ("get", "/products/{slug}/conversions"),
    ("post", "/products/{slug}/conversions"),
    ("post", "/products/{slug}/conversions/{key}/delete"),
    ("get", "/products/{slug}/conversions/report"),
    ("get", "/products/{slug}/payback"),
    ("get", "/products/{slug}/export/events.csv"),
    ("get", "/products/{slug}/export/transactions.csv"),
    ("get", "/queue"),
    ("post", "/queue/{id}/approve"),
    ("post", "/queue/{id}/reject"),
    ("post", "/queue/{id}/snooze"),
    ("post", "/queue/{id}/restore"),
    ("get", "/products/{slug}/spend"),
    ("post", "/products/{slug}/proposals"),
    ("get", "/products/{slug}/policy"),
    ("post", "/products/{slug}/policy"),
    ("get", "/policy"),
    ("post", "/policy"),
    ("post", "/distribution"),
    ("get", "/products/{slug}/distribution"),
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
    // The spec's three, and `include` (account events for owners; see README).
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
        assert!(
            reply.status < 500,
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
        assert!(
            non_json
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
