//! HTTP routes: each module parses requests, calls a service and answers. No business rules.

pub mod attribution;
pub mod auth;
pub mod billing;
pub mod chat;
pub mod connect;
pub mod connections;
pub mod conversions;
pub mod dashboard;
pub mod dashboards;
pub mod databases;
pub mod demand;
pub mod detect;
pub mod distribution;
pub mod exports;
pub mod funnel;
pub mod grant_page;
pub mod growth;
pub mod health_report;
pub mod history;
pub mod keys;
pub mod landing_pages;
pub mod payback;
pub mod policy;
pub mod products;
pub mod queue;
pub mod recordings;
pub mod scorecard;
pub mod series;
pub mod service_account;
pub mod snippet;
pub mod social_report;
pub mod spend;
pub mod sso;
pub mod system;
pub mod team;
pub mod tracking;

/// OpenAPI tag names, one per resource family.
pub mod tags {
    pub const AUTH: &str = "account access";
    pub const TEAM: &str = "team";
    pub const PRODUCTS: &str = "products and portfolio";
    pub const HISTORY: &str = "history";
    pub const SYSTEM: &str = "system";
    pub const TRACKING: &str = "tracking";
    pub const REPORTS: &str = "reports";
    pub const FUNNEL: &str = "funnel and conversions";
    pub const EXPORTS: &str = "exports";
    pub const QUEUE: &str = "approval queue, policy and spend";
    pub const CONNECTIONS: &str = "connections";
    pub const CHAT: &str = "chat assistant";
    pub const BILLING: &str = "billing";
}
