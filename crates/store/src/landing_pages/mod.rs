//! Landing pages: the pages a product tracks (`pages`), the exclude filters over their paths
//! (`filters`), each page's analyses (`analyses`), the first-party visits per landing path the
//! fold keeps (`visits`), the reads of traffic per path and day (`traffic`) and of the friction
//! replay sources counted per path (`friction`). Every read and
//! write of a page or filter filters on the caller's account, so another account's row is simply
//! not found.

pub mod analyses;
pub mod filters;
pub mod friction;
pub mod pages;
pub mod traffic;
pub mod visits;
