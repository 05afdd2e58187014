//! Cursor paging of the search finders (adAccounts, adCampaigns, creatives), as LinkedIn pages
//! them since version 202401: `pageSize` (default 100) and `pageToken`, the next token in
//! `metadata.nextPageToken`, no token on the last page.
//!
//! The fake answers at most its own page size whatever `pageSize` asks (a page may hold fewer
//! elements than asked without being the last), so a connector must follow the tokens. A token
//! is opaque and bound to the search that issued it: replayed with other criteria it is refused.
//! The index paging of older versions (`start`/`count`) is refused, since a connector sending it
//! would otherwise read the first page forever.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};

use super::restli::{Invalid, Query};

/// LinkedIn's largest `pageSize`.
const MAX_PAGE_SIZE: usize = 1000;
const DEFAULT_PAGE_SIZE: usize = 100;

/// The parameters every paged finder takes.
pub(crate) const PAGING_PARAMS: [&str; 2] = ["pageSize", "pageToken"];

/// Where a page starts and how long it is.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Page {
    offset: usize,
    size: usize,
    search: u64,
}

impl Page {
    /// Reads `pageSize` and `pageToken` of a search on `path`.
    pub fn read(path: &str, query: &Query, fake_page_size: usize) -> Result<Self, Invalid> {
        if query.raw("start").is_some() || query.raw("count").is_some() {
            return Err(Invalid(
                "start/count paging is gone from search finders since 202401: page with pageSize and pageToken"
                    .into(),
            ));
        }
        let asked = match query.text("pageSize")? {
            None => DEFAULT_PAGE_SIZE,
            Some(text) => text
                .parse::<usize>()
                .ok()
                .filter(|size| (1..=MAX_PAGE_SIZE).contains(size))
                .ok_or_else(|| {
                    Invalid::param("pageSize", format!("must be 1 to {MAX_PAGE_SIZE}"))
                })?,
        };
        let search = fingerprint(path, query);
        let offset = match query.text("pageToken")? {
            None => 0,
            Some(token) => redeem(&token, search)
                .ok_or_else(|| Invalid::param("pageToken", "not a token of this search"))?,
        };
        Ok(Self {
            offset,
            size: asked.min(fake_page_size.max(1)),
            search,
        })
    }

    /// `{"elements": [this page], "metadata": {"nextPageToken"?}}`.
    pub fn answer(&self, elements: Vec<Value>) -> Value {
        let total = elements.len();
        let end = self.offset.saturating_add(self.size);
        let page: Vec<Value> = elements
            .into_iter()
            .skip(self.offset)
            .take(self.size)
            .collect();
        let metadata = if end < total {
            json!({ "nextPageToken": issue(end, self.search) })
        } else {
            json!({})
        };
        json!({ "elements": page, "metadata": metadata })
    }
}

/// The search's identity: its path and every parameter but the token.
fn fingerprint(path: &str, query: &Query) -> u64 {
    let mut params: Vec<(&str, Option<&str>)> = query
        .names()
        .filter(|name| *name != "pageToken")
        .map(|name| (name, query.raw(name)))
        .collect();
    params.sort_unstable();
    let mut hasher = DefaultHasher::new();
    path.hash(&mut hasher);
    params.hash(&mut hasher);
    hasher.finish()
}

fn issue(offset: usize, search: u64) -> String {
    URL_SAFE_NO_PAD.encode(format!("{offset}:{search:016x}"))
}

fn redeem(token: &str, search: u64) -> Option<usize> {
    let bytes = URL_SAFE_NO_PAD.decode(token).ok()?;
    let text = String::from_utf8(bytes).ok()?;
    let (offset, issued_for) = text.split_once(':')?;
    (issued_for == format!("{search:016x}"))
        .then(|| offset.parse().ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(text: &str) -> Query {
        Query::parse(Some(text)).expect("query")
    }

    #[test]
    fn pages_follow_tokens_to_the_end() {
        let elements: Vec<Value> = (1..=5).map(|n| json!(n)).collect();
        let first =
            Page::read("/rest/adAccounts", &query("q=search&pageSize=2"), 3).expect("first page");
        let answer = first.answer(elements.clone());
        assert_eq!(answer["elements"], json!([1, 2]));
        let token = answer["metadata"]["nextPageToken"]
            .as_str()
            .expect("a next token")
            .to_owned();

        let second = Page::read(
            "/rest/adAccounts",
            &query(&format!("q=search&pageSize=2&pageToken={token}")),
            3,
        )
        .expect("second page");
        let answer = second.answer(elements.clone());
        assert_eq!(answer["elements"], json!([3, 4]));
        let token = answer["metadata"]["nextPageToken"]
            .as_str()
            .expect("a next token")
            .to_owned();

        let last = Page::read(
            "/rest/adAccounts",
            &query(&format!("q=search&pageSize=2&pageToken={token}")),
            3,
        )
        .expect("last page");
        let answer = last.answer(elements);
        assert_eq!(answer["elements"], json!([5]));
        assert_eq!(answer["metadata"], json!({}));
    }

    #[test]
    fn tokens_belong_to_their_search() {
        let page = Page::read("/rest/adAccounts", &query("q=search"), 1).expect("page");
        let answer = page.answer(vec![json!(1), json!(2)]);
        let token = answer["metadata"]["nextPageToken"]
            .as_str()
            .expect("a next token")
            .to_owned();
        let other = query(&format!(
            "q=search&search=(status:(values:List(ACTIVE)))&pageToken={token}"
        ));
        assert!(Page::read("/rest/adAccounts", &other, 1).is_err());
        assert!(Page::read("/rest/adAccounts", &query("q=search&pageToken=bm9wZQ"), 1).is_err());
        assert!(Page::read("/rest/adAccounts", &query("q=search&start=0&count=10"), 1).is_err());
        assert!(Page::read("/rest/adAccounts", &query("q=search&pageSize=0"), 1).is_err());
        assert!(Page::read("/rest/adAccounts", &query("q=search&pageSize=1001"), 1).is_err());
    }
}
