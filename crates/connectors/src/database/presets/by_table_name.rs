//! Presets recognising a table by its usual name: users and accounts (signups), orders and
//! payments, subscriptions, leads and contacts.

use payback_domain::event_map::EventMap;

use super::columns::{
    ANY_ID, CREATED, KEY, TEXT, TIME, attribution, base, buyer, column, named_as, revenue,
    singular, user_map,
};
use crate::database::schema::TableSummary;

pub(super) fn signups(table: &TableSummary) -> Option<EventMap> {
    if !named_as(
        table,
        &[
            "users",
            "user",
            "accounts",
            "account",
            "customers",
            "customer",
            "members",
            "member",
        ],
    ) {
        return None;
    }
    let created = column(
        table,
        &[
            CREATED,
            &[
                "date_joined",
                "signup_date",
                "signed_up_at",
                "registered_at",
                "joined_at",
            ],
        ]
        .concat(),
        TIME,
    )?;
    user_map(table, created)
}

pub(super) fn orders(table: &TableSummary) -> Option<EventMap> {
    let kinds = [
        "orders",
        "order",
        "payments",
        "payment",
        "invoices",
        "invoice",
        "charges",
        "charge",
        "purchases",
        "purchase",
        "transactions",
        "sales",
    ];
    let name = table.name.to_ascii_lowercase();
    let known = kinds
        .iter()
        .any(|kind| name == *kind || name.ends_with(&format!("_{kind}")));
    if !known {
        return None;
    }
    let paid = column(
        table,
        &[
            &[
                "paid_at",
                "completed_at",
                "charged_at",
                "purchased_at",
                "ordered_at",
                "order_date",
            ],
            CREATED,
        ]
        .concat(),
        TIME,
    )?;
    let key = column(table, &["id", &format!("{}_id", singular(&name))], KEY)?;
    let mut map = base(table, "payment", paid, key);
    map.revenue = Some(revenue(table)?);
    buyer(table, &mut map);
    Some(map)
}

pub(super) fn subscriptions(table: &TableSummary) -> Option<EventMap> {
    let name = table.name.to_ascii_lowercase();
    if !(name == "subscriptions" || name == "subscription" || name.ends_with("_subscriptions")) {
        return None;
    }
    let started = column(
        table,
        &[&["started_at", "start_date", "starts_at"], CREATED].concat(),
        TIME,
    )?;
    let key = column(table, &["id", "subscription_id"], KEY)?;
    let mut map = base(table, "converted", started, key);
    map.revenue = revenue(table);
    buyer(table, &mut map);
    Some(map)
}

pub(super) fn leads(table: &TableSummary) -> Option<EventMap> {
    if !named_as(
        table,
        &[
            "leads",
            "lead",
            "contacts",
            "contact",
            "waitlist",
            "waitlist_entries",
            "subscribers",
            "newsletter_subscribers",
            "inquiries",
            "enquiries",
        ],
    ) {
        return None;
    }
    let created = column(
        table,
        &[CREATED, &["subscribed_at", "signed_up_at"]].concat(),
        TIME,
    )?;
    let key = column(table, &["id", "lead_id", "contact_id"], KEY)?;
    let mut map = base(table, "lead", created, key);
    map.email = Some(column(table, &["email", "email_address"], TEXT)?);
    map.user_id = column(table, &["user_id"], ANY_ID);
    map.attribution = attribution(table);
    Some(map)
}
