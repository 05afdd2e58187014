//! The choice every granted kind makes among what discovery offered (a site, a container, a
//! property, an ad account, a page): the one named, or the only one there is; otherwise a 400
//! naming the kind's choice field, listing the options when there are several. Written once so
//! that every kind refuses in the same words, each with its own field and nouns.

use crate::error::{ApiError, ApiResult};

/// A kind's words in its refusals: `{field}: {named} is not {offered}`, `{field}: {none}` and
/// `{field}: choose one of …`.
#[derive(Debug, Clone, Copy)]
pub struct ChoiceWords {
    /// The request field that chooses: `search_console_site_url`.
    pub field: &'static str,
    /// What each option is, after `is not`: `a site this grant reaches`.
    pub offered: &'static str,
    /// The sentence when nothing is offered: `this grant reaches no Tag Manager container`.
    pub none: &'static str,
}

impl ChoiceWords {
    /// A 400 naming the field.
    fn refuse(&self, reason: impl std::fmt::Display) -> ApiError {
        ApiError::bad_request(format!("{}: {reason}", self.field))
    }
}

/// The option `chosen` names (as `matches` compares, which may normalise the text: dashes,
/// a `properties/` prefix), or, with nothing named, the only option there is. The refusals
/// quote `chosen` as it was sent and list the options by `label`.
pub fn choose_offered<'a, T>(
    options: &'a [T],
    chosen: Option<&str>,
    matches: impl Fn(&T, &str) -> bool,
    label: impl Fn(&T) -> &str,
    words: ChoiceWords,
) -> ApiResult<&'a T> {
    match chosen {
        Some(named) => options
            .iter()
            .find(|option| matches(option, named))
            .ok_or_else(|| words.refuse(format_args!("{named} is not {}", words.offered))),
        None => match options {
            [only] => Ok(only),
            [] => Err(words.refuse(words.none)),
            several => {
                let labels: Vec<&str> = several.iter().map(label).collect();
                Err(words.refuse(format_args!("choose one of {}", labels.join(", "))))
            }
        },
    }
}

/// [`choose_offered`] where the name must be the option's `key` exactly, as offered.
pub fn choose_exact<'a, T>(
    options: &'a [T],
    chosen: Option<&str>,
    key: impl Fn(&T) -> &str,
    words: ChoiceWords,
) -> ApiResult<&'a T> {
    choose_offered(
        options,
        chosen,
        |option, named| key(option) == named,
        &key,
        words,
    )
}

/// The message of a 400, for the kinds' tests of their own words.
#[cfg(test)]
pub fn refusal<T: std::fmt::Debug>(result: ApiResult<T>) -> String {
    match result {
        Err(ApiError::BadRequest(message)) => message,
        other => panic!("expected a 400, got {other:?}"),
    }
}

/// A kind's two refusals in its own words: of `unknown` named among `offered`, and of nothing
/// offered.
#[cfg(test)]
pub fn refusals<'a, T: std::fmt::Debug>(
    choose: impl Fn(&'a [T], Option<&str>) -> ApiResult<&'a T>,
    offered: &'a [T],
    unknown: &str,
) -> [String; 2] {
    [
        refusal(choose(offered, Some(unknown))),
        refusal(choose(&offered[..0], None)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    const WORDS: ChoiceWords = ChoiceWords {
        field: "thing_id",
        offered: "a thing this grant reaches",
        none: "this grant reaches no thing",
    };

    /// Ids offered as `things/<id>`, named with or without the prefix.
    fn choose<'a>(options: &'a [&'a str], chosen: Option<&str>) -> ApiResult<&'a &'a str> {
        choose_offered(
            options,
            chosen,
            |option, named| *option == named.trim_start_matches("things/"),
            |option| *option,
            WORDS,
        )
    }

    #[test]
    fn the_named_option_is_chosen_among_several() {
        assert_eq!(choose(&["1", "2", "3"], Some("2")).ok(), Some(&"2"));
    }

    #[test]
    fn the_named_option_is_found_through_the_kinds_normalising() {
        assert_eq!(choose(&["1", "2"], Some("things/1")).ok(), Some(&"1"));
    }

    #[test]
    fn an_exact_choice_takes_the_key_as_offered_only() {
        let offered = ["things/1", "things/2"];
        let exact = |named| choose_exact(&offered, Some(named), |option| option, WORDS);
        assert_eq!(exact("things/2").ok(), Some(&"things/2"));
        assert_eq!(
            refusal(exact("2")),
            "thing_id: 2 is not a thing this grant reaches"
        );
    }

    #[test]
    fn the_only_option_is_chosen_unnamed() {
        assert_eq!(choose(&["7"], None).ok(), Some(&"7"));
    }

    #[test]
    fn the_only_option_is_not_chosen_when_another_is_named() {
        assert_eq!(
            refusal(choose(&["7"], Some("8"))),
            "thing_id: 8 is not a thing this grant reaches"
        );
    }

    #[test]
    fn nothing_offered_says_so_in_the_kinds_words() {
        assert_eq!(
            refusal(choose(&[], None)),
            "thing_id: this grant reaches no thing"
        );
    }

    #[test]
    fn several_unnamed_list_every_option_in_order() {
        assert_eq!(
            refusal(choose(&["3", "1", "2"], None)),
            "thing_id: choose one of 3, 1, 2"
        );
    }

    #[test]
    fn an_unknown_name_is_quoted_as_sent() {
        assert_eq!(
            refusal(choose(&["1", "2"], Some("things/9"))),
            "thing_id: things/9 is not a thing this grant reaches"
        );
    }
}
