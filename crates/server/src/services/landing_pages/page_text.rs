//! A fetched page as the text a reader sees, parsed as a browser would (html5ever, through
//! `scraper`): scripts, styles and other non-text elements dropped, comments and tags removed,
//! entities decoded, whitespace collapsed, cut at [`MAX_TEXT_CHARS`].
//! Only this text (never the markup) reaches the model, so loader code and hidden elements do
//! not spend its context.

use scraper::{ElementRef, Html, Node};

/// The most characters of page text sent to the model.
pub const MAX_TEXT_CHARS: usize = 20_000;

/// Elements whose content is not page text.
const SKIPPED: [&str; 6] = ["script", "style", "noscript", "svg", "template", "iframe"];

/// Elements that start a new line of text.
const BLOCKS: [&str; 22] = [
    "p",
    "div",
    "br",
    "li",
    "ul",
    "ol",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "section",
    "article",
    "header",
    "footer",
    "main",
    "nav",
    "tr",
    "title",
    "blockquote",
    "form",
];

pub fn page_text(html: &str) -> String {
    let document = Html::parse_document(html);
    let mut raw = String::with_capacity(html.len().min(MAX_TEXT_CHARS * 4));
    push_text(document.root_element(), &mut raw);
    collapse(&raw)
}

/// The text under `element` (entities already decoded by the parser), a line break around each
/// block element and a space around every other, skipping what is not page text.
fn push_text(element: ElementRef<'_>, out: &mut String) {
    let name = element.value().name();
    if SKIPPED.contains(&name) {
        return;
    }
    let gap = if BLOCKS.contains(&name) { '\n' } else { ' ' };
    out.push(gap);
    for child in element.children() {
        if let Some(inner) = ElementRef::wrap(child) {
            push_text(inner, out);
        } else if let Node::Text(text) = child.value() {
            out.push_str(text);
        }
    }
    out.push(gap);
}

/// One space between words, one line per block, no blank lines, at most [`MAX_TEXT_CHARS`].
fn collapse(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&words.join(" "));
    }
    match out.char_indices().nth(MAX_TEXT_CHARS) {
        Some((cut, _)) => out[..cut].to_owned(),
        None => out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_goes_text_stays() {
        let html = "<html><head><title>Ship &amp; grow</title><style>p{color:red}</style>\
            <script>var x = '<p>not text</p>';</script></head><body><!-- hidden -->\
            <h1>Fast   payroll</h1><p>For <b>small</b> teams.<br>Try it</p>\
            <noscript>enable js</noscript><SCRIPT type=x>alert(1)</SCRIPT><a href=\"/x\">Start now</a></body></html>";
        assert_eq!(
            page_text(html),
            "Ship & grow\nFast payroll\nFor small teams.\nTry it\nStart now"
        );
    }

    #[test]
    fn long_pages_are_cut() {
        let html = format!("<p>{}</p>", "é".repeat(MAX_TEXT_CHARS + 10));
        assert_eq!(page_text(&html).chars().count(), MAX_TEXT_CHARS);
        assert_eq!(page_text("plain < text"), "plain < text");
    }
}
