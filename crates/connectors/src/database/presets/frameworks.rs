//! Presets for the user tables of known frameworks: Django, Supabase Auth, Rails with Devise,
//! WordPress.

use payback_domain::event_map::{Condition, EventMap, FilterOp};

use super::columns::{KEY, TEXT, TIME, base, column, named_as, user_map};
use crate::database::schema::{ColumnKind, TableSummary};

pub(super) fn django(table: &TableSummary) -> Option<EventMap> {
    if !named_as(table, &["auth_user"]) {
        return None;
    }
    user_map(table, column(table, &["date_joined"], TIME)?)
}

pub(super) fn supabase(table: &TableSummary) -> Option<EventMap> {
    let in_auth = table
        .schema
        .as_deref()
        .is_some_and(|schema| schema.eq_ignore_ascii_case("auth"));
    if !in_auth || !named_as(table, &["users"]) {
        return None;
    }
    let mut map = user_map(table, column(table, &["created_at"], TIME)?)?;
    if let Some(anonymous) = column(table, &["is_anonymous"], &[ColumnKind::Boolean]) {
        map.filter.push(Condition {
            column: anonymous,
            op: FilterOp::Ne,
            value: Some(serde_json::Value::Bool(true)),
        });
    }
    Some(map)
}

pub(super) fn rails_devise(table: &TableSummary) -> Option<EventMap> {
    if table.schema.is_some() || !named_as(table, &["users"]) {
        return None;
    }
    column(table, &["encrypted_password"], TEXT)?;
    user_map(table, column(table, &["created_at"], TIME)?)
}

pub(super) fn wordpress(table: &TableSummary) -> Option<EventMap> {
    if !table.name.to_ascii_lowercase().ends_with("users") {
        return None;
    }
    let registered = column(table, &["user_registered"], TIME)?;
    let key = column(table, &["id"], KEY)?;
    let mut map = base(table, "signup", registered, key.clone());
    map.user_id = Some(key);
    map.email = column(table, &["user_email"], TEXT);
    Some(map)
}
