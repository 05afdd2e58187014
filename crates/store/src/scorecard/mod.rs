//! The weekly scorecard's own rows: a product's layout (`layouts`), the values typed into its
//! manual rows (`manual_cells`), its share link (`shares`) and the spreadsheet it syncs to
//! (`spreadsheets`). The figures themselves are read by `reports::weekly`. Every function
//! takes the product's id, which the caller found through its account's scope; the layout also
//! filters on the account, so another account's product has no scorecard.

pub mod layouts;
pub mod manual_cells;
pub mod shares;
pub mod spreadsheets;
