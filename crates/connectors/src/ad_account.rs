//! An ad account a credential reaches, as a connect flow offers it to the human choosing one
//! (the social networks' discovery, LinkedIn's). Ids are the plain numbers the spec's connect
//! bodies take (no `act_` prefix, no URN).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdAccountOption {
    /// Digits only.
    pub id: String,
    pub name: String,
    /// ISO 4217, as the network reports it; an account in another currency than the product's
    /// cannot be selected.
    pub currency: String,
    /// `active`, or the network's word for why it is not (`disabled`, `closed`, ...), lowercase.
    pub status: String,
}
