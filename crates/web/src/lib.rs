//! The dashboard's files as the server hands them out. Release builds carry `web/dist` inside
//! the binary; debug builds read it from disk, so `npm run build` shows up on reload.

use std::borrow::Cow;

#[derive(rust_embed::RustEmbed)]
#[folder = "../../web/dist"]
struct Dist;

/// One built file.
pub struct Asset {
    pub bytes: Cow<'static, [u8]>,
    pub content_type: String,
    /// Vite puts a content hash in every name under `assets/`: those never change and may be
    /// cached for good; `index.html` must be revalidated so new releases are picked up.
    pub immutable: bool,
}

/// The file at `path` (relative to `web/dist`, e.g. `assets/index-abc.js`), if it exists.
pub fn asset(path: &str) -> Option<Asset> {
    let file = Dist::get(path)?;
    Some(Asset {
        content_type: file.metadata.mimetype().to_owned(),
        bytes: file.data,
        immutable: path.starts_with("assets/"),
    })
}

/// The app's single page.
pub fn index() -> Option<Asset> {
    asset("index.html")
}
