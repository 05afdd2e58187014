//! Reading the `.eml` files the `file:` mail transport writes.

use std::path::Path;

#[derive(Debug, Clone)]
pub struct ReceivedMail {
    pub to: String,
    pub subject: String,
    pub body: String,
}

impl ReceivedMail {
    /// The first URL in the body starting with `prefix`.
    pub fn link_starting_with(&self, prefix: &str) -> Option<String> {
        let at = self.body.find(prefix)?;
        let link: String = self.body[at..]
            .chars()
            .take_while(|c| !c.is_whitespace())
            .collect();
        Some(link)
    }
}

/// Every message in `dir`, oldest first.
pub(crate) fn read_all(dir: &Path) -> Vec<ReceivedMail> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "eml"))
                .collect()
        })
        .unwrap_or_default();
    files.sort_by_key(|path| std::fs::metadata(path).and_then(|m| m.modified()).ok());
    files
        .iter()
        .filter_map(|path| {
            let raw = std::fs::read(path).ok()?;
            let message = mail_parser::MessageParser::default().parse(&raw)?;
            let to = message.to()?.first()?.address()?.to_owned();
            Some(ReceivedMail {
                to,
                subject: message.subject().unwrap_or_default().to_owned(),
                body: message
                    .body_text(0)
                    .map(|b| b.into_owned())
                    .unwrap_or_default(),
            })
        })
        .collect()
}
