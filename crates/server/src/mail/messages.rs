//! The texts of every mail Payback sends. Plain text: they carry one link each.

/// A message ready for the transport.
#[derive(Debug, Clone)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub body: String,
}

pub fn verify_email(to: &str, link: &str) -> Mail {
    Mail {
        to: to.to_owned(),
        subject: "Confirm your email for Payback".to_owned(),
        body: format!(
            "Welcome to Payback.\n\nConfirm your email address to sign in:\n\n{link}\n\n\
             The link works once and expires in 7 days. If you did not sign up, ignore this mail.\n"
        ),
    }
}

pub fn invite(to: &str, account_name: &str, invited_by: &str, link: &str) -> Mail {
    Mail {
        to: to.to_owned(),
        subject: format!("You are invited to {account_name} on Payback"),
        body: format!(
            "{invited_by} invited you to the workspace \"{account_name}\" on Payback.\n\n\
             Accept the invitation:\n\n{link}\n\nThe link works once and expires in 7 days.\n"
        ),
    }
}

pub fn claim(to: &str, link: &str) -> Mail {
    Mail {
        to: to.to_owned(),
        subject: "Claim your Payback account".to_owned(),
        body: format!(
            "An assistant created a Payback account for this address and is already sending it data.\n\n\
             Set a password to see the dashboard and approve what it proposes:\n\n{link}\n\n\
             The link works once and expires in 7 days.\n"
        ),
    }
}

pub fn lead_prompt(to: &str, prompt_type: &str, prompt: &str) -> Mail {
    Mail {
        to: to.to_owned(),
        subject: format!("Your Payback {prompt_type} prompt"),
        body: format!(
            "Here is the prompt you asked for. Paste it into your coding agent.\n\n{prompt}\n"
        ),
    }
}

pub fn onboarding_complete(
    to: &str,
    product_name: &str,
    product_slug: &str,
    account_name: &str,
) -> Mail {
    Mail {
        to: to.to_owned(),
        subject: format!("Onboarding complete: {product_name}"),
        body: format!(
            "The product \"{product_name}\" ({product_slug}) in the workspace \"{account_name}\" finished onboarding.\n"
        ),
    }
}
