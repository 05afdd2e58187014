//! The presets `suggest-mappings` offers without a model: event maps for schemas common enough
//! to recognise by their table and column names (case-insensitive) and column kinds. A preset
//! "fits" when at least one table matches it; its maps are proposals, never saved here.
//!
//! `frameworks` knows the user tables of Django, Supabase, Rails/Devise and WordPress;
//! `by_table_name` the generic users, orders, subscriptions and leads tables; `columns` finds
//! the columns they map (timestamps, keys, buyers, amounts, attribution) by their usual names.

mod by_table_name;
mod columns;
mod frameworks;
#[cfg(test)]
mod tests;

use payback_domain::event_map::{EventMap, FieldSyntax, MAX_MAPS, check_maps};
use serde::Serialize;

use super::schema::{SchemaSummary, TableSummary};
use by_table_name::{leads, orders, signups, subscriptions};
use frameworks::{django, rails_devise, supabase, wordpress};

/// One preset as the API lists it.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Preset {
    pub id: &'static str,
    pub label: &'static str,
    pub description: &'static str,
    /// The map this preset proposes for one table, if the table is one it knows.
    #[serde(skip)]
    fit: fn(&TableSummary) -> Option<EventMap>,
}

/// A preset and whether the described schema has a table it maps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PresetFit {
    pub id: String,
    pub label: String,
    pub description: String,
    pub fits: bool,
}

/// What `suggest-mappings` answers on its preset path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PresetSuggestions {
    pub suggestions: Vec<EventMap>,
    pub presets: Vec<PresetFit>,
}

/// The server answers 404 for both.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PresetError {
    #[error("no preset `{0}`")]
    UnknownPreset(String),
    #[error("preset `{0}` fits none of the tables")]
    DoesNotFit(String),
}

const PRESETS: &[Preset] = &[
    Preset {
        id: "django",
        label: "Django users",
        description: "Django's auth_user table: each user is a signup at date_joined.",
        fit: django,
    },
    Preset {
        id: "supabase",
        label: "Supabase Auth users",
        description: "Supabase's auth.users table: each user is a signup at created_at (anonymous users left out).",
        fit: supabase,
    },
    Preset {
        id: "rails_devise",
        label: "Rails / Devise users",
        description: "A Rails users table with Devise's encrypted_password: each user is a signup at created_at.",
        fit: rails_devise,
    },
    Preset {
        id: "wordpress",
        label: "WordPress users",
        description: "WordPress's wp_users table: each user is a signup at user_registered.",
        fit: wordpress,
    },
    Preset {
        id: "signups",
        label: "Users, accounts or customers",
        description: "A users, accounts or customers table with a creation time: each row is a signup, with its email and utm_* attribution columns when present.",
        fit: signups,
    },
    Preset {
        id: "orders",
        label: "Orders and payments",
        description: "Orders, payments, invoices or charges with an amount: each row is a payment with revenue (integer and *_cents amounts as cents, decimals as whole units) in its currency column's currency.",
        fit: orders,
    },
    Preset {
        id: "subscriptions",
        label: "Subscriptions",
        description: "A subscriptions table: each subscription started is a conversion, with its price when there is one.",
        fit: subscriptions,
    },
    Preset {
        id: "leads",
        label: "Leads and contacts",
        description: "Leads, contacts, waitlist or newsletter subscribers with an email: each row is a lead.",
        fit: leads,
    },
];

/// Every preset, in the order their maps are preferred.
pub fn presets() -> &'static [Preset] {
    PRESETS
}

/// Proposes maps for the described schema. Without `preset_id`: the maps of every preset that
/// fits (a table and stage once, the first preset's map winning), and every preset with
/// whether it fits. With one: only that preset's maps, refused when it fits nothing.
pub fn suggest(
    summary: &SchemaSummary,
    preset_id: Option<&str>,
) -> Result<PresetSuggestions, PresetError> {
    if let Some(id) = preset_id {
        let preset = PRESETS
            .iter()
            .find(|preset| preset.id.eq_ignore_ascii_case(id.trim()))
            .ok_or_else(|| PresetError::UnknownPreset(id.to_owned()))?;
        let suggestions = maps_of(preset, summary);
        if suggestions.is_empty() {
            return Err(PresetError::DoesNotFit(preset.id.to_owned()));
        }
        return Ok(PresetSuggestions {
            suggestions,
            presets: vec![fit_of(preset, true)],
        });
    }
    let mut suggestions: Vec<EventMap> = Vec::new();
    let mut fits = Vec::with_capacity(PRESETS.len());
    for preset in PRESETS {
        let maps = maps_of(preset, summary);
        fits.push(fit_of(preset, !maps.is_empty()));
        for map in maps {
            let taken = suggestions.iter().any(|other| {
                other.schema == map.schema && other.table == map.table && other.stage == map.stage
            });
            if !taken && suggestions.len() < MAX_MAPS {
                suggestions.push(map);
            }
        }
    }
    Ok(PresetSuggestions {
        suggestions,
        presets: fits,
    })
}

fn fit_of(preset: &Preset, fits: bool) -> PresetFit {
    PresetFit {
        id: preset.id.to_owned(),
        label: preset.label.to_owned(),
        description: preset.description.to_owned(),
        fits,
    }
}

/// The preset's maps, each one `check_maps` accepts (a table or column whose name is not a
/// plain identifier cannot be mapped and is passed over).
fn maps_of(preset: &Preset, summary: &SchemaSummary) -> Vec<EventMap> {
    summary
        .tables
        .iter()
        .filter_map(preset.fit)
        .filter_map(|map| check_maps(vec![map], FieldSyntax::Column).ok()?.pop())
        .collect()
}
