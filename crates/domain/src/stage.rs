//! The canonical funnel stages, in order.

use crate::roles::wire_enum;

wire_enum! {
    /// Canonical funnel stage taxonomy; the declaration order is the funnel order.
    Stage {
        Impression => "impression",
        Visit => "visit",
        Engaged => "engaged",
        Lead => "lead",
        Qualified => "qualified",
        Signup => "signup",
        Activated => "activated",
        Converted => "converted",
        Payment => "payment",
        Churned => "churned",
    }
}

impl Stage {
    /// Stages whose valued events are revenue and whose first occurrence acquires a customer.
    pub fn acquires_customer(self) -> bool {
        matches!(self, Stage::Converted | Stage::Payment)
    }
}
