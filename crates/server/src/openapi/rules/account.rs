//! Account access (`routes/auth.rs`, `services/signup.rs`, `sessions.rs`, `team.rs`,
//! `keys.rs`, `workspaces.rs`; `domain/src/validation.rs`).

use payback_domain::validation as input;

use crate::openapi::rule::*;
use crate::routes::auth;
use crate::services::signup;

pub fn rules() -> Vec<(At, Vec<Rule>)> {
    use At::{Field, Schema};
    vec![
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
    ]
}
