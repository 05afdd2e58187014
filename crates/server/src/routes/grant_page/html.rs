//! The grant confirmation page and its refusals as HTML: plain markup, no script, every tenant
//! value (workspace, product, key name, emails) escaped by [`escape`].

use crate::services::grants::{ConfirmView, Starter};

/// Text as HTML character data or a quoted attribute value (`html-escape`): `&`, `<`, `>`,
/// `"` and `'` become entities, so a product named `<script>` shows as text.
pub fn escape(text: &str) -> String {
    html_escape::encode_quoted_attribute(text).into_owned()
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;\
padding:0 1rem;line-height:1.5;color:#1d2430}dt{font-weight:600;margin-top:.5rem}dd{margin:0}\
.warn{background:#fff6e0;border:1px solid #e6c15c;padding:.75rem 1rem;border-radius:6px}\
button{font-size:1rem;padding:.6rem 1.2rem;margin-top:1rem;cursor:pointer}";

fn document(title: &str, body: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>Payback: {}</title><style>{STYLE}</style></head><body><main>{body}</main></body></html>",
        escape(title)
    )
}

/// Who started the flow, in one phrase.
fn starter(view: &ConfirmView) -> String {
    let via = match view.started_via {
        "mcp" => " through MCP (an AI agent)",
        "chat" => " through Payback's chat assistant",
        "dashboard" => " in Payback's dashboard",
        _ => " through Payback's API",
    };
    match &view.starter {
        Starter::Person { email } => format!("{}{via}", escape(email)),
        Starter::ApiKey { name, creator } => {
            let creator = match creator {
                Some(email) => format!("created by {}", escape(email)),
                None => "created at an agent's sign-up, not by a person".to_owned(),
            };
            format!(
                "the API key <strong>{}</strong> ({creator}){via}",
                escape(name)
            )
        }
        Starter::Operator { name } => {
            format!("the platform operator's token ({}){via}", escape(name))
        }
        Starter::System => "Payback itself".to_owned(),
    }
}

/// The confirmation page: what is asked, by whom, for which workspace and product, and the form
/// that sends the person on to the provider (`action` is the page's own URL on the public URL).
pub fn confirmation(view: &ConfirmView, action: &str) -> String {
    let vendor = escape(view.vendor);
    let mut access = String::new();
    for kind in &view.access {
        access.push_str(&format!("<h3>{}</h3><ul>", escape(kind.title)));
        for line in kind.lines {
            access.push_str(&format!("<li>{}</li>", escape(line)));
        }
        access.push_str("</ul>");
    }
    let body = format!(
        "<h1>Connect {vendor} to Payback?</h1>\
         <p class=\"warn\">Continue only if you recognise this workspace and product and you \
         expected this request. If someone sent you this link and you are not sure, close this \
         page: nothing happens, and your {vendor} account stays out of it.</p>\
         <dl>\
         <dt>Workspace</dt><dd id=\"workspace\">{workspace}</dd>\
         <dt>Product</dt><dd id=\"product\">{product} (<code>{slug}</code>)</dd>\
         <dt>Started by</dt><dd id=\"starter\">{starter}</dd>\
         <dt>This link expires</dt><dd>{expires}</dd>\
         </dl>\
         <h2>What Payback will read or change</h2>{access}\
         <p>Next, {vendor} asks you to sign in and allow this access; then the workspace chooses \
         which account to connect. Payback keeps the access sealed, and disconnecting revokes it.</p>\
         <form method=\"post\" action=\"{action}\">\
         <input type=\"hidden\" name=\"state\" value=\"{state}\">\
         <button type=\"submit\" id=\"confirm-grant\">Continue to {vendor}</button>\
         </form>",
        workspace = escape(&view.workspace),
        product = escape(&view.product_name),
        slug = escape(&view.product_slug),
        starter = starter(view),
        expires = escape(&view.expires_at),
        action = escape(action),
        state = escape(&view.state),
    );
    document(&format!("connect {}?", view.vendor), &body)
}

/// A refusal: the reason in one sentence.
pub fn refused(message: &str) -> String {
    document(
        "not connected",
        &format!(
            "<h1>Not connected</h1><p id=\"reason\">{}</p>",
            escape(message)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_in_a_value_is_text() {
        assert_eq!(
            escape("<script>alert('x')</script> & \"q\""),
            "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; &quot;q&quot;"
        );
    }
}
