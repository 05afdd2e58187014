//! `payback`: parses the command line and calls into the server crate.

use clap::{Parser, Subcommand};
use payback_server::{Config, app, demo, operator};

#[derive(Parser)]
#[command(
    name = "payback",
    version,
    about = "Did this spend pay back? Attribution, payback and an approval queue for ad spend."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the HTTP service.
    Serve {
        /// Create the demo workspace (once) and print how to sign in.
        #[arg(long)]
        demo: bool,
    },
    /// Apply database migrations and exit.
    Migrate,
    /// Create the demo workspace (once), print how to sign in, and exit.
    Demo,
    /// Operator administration.
    Operator {
        #[command(subcommand)]
        command: OperatorCommand,
    },
}

#[derive(Subcommand)]
enum OperatorCommand {
    /// Make the accounts EMAIL owns operator accounts (their members see every account).
    Grant { email: String },
    /// Batches the database refused while folding them, set aside in `ingest_failures`.
    IngestFailures {
        #[command(subcommand)]
        action: FailuresAction,
        /// Only this product's (its id); every product's when left out.
        #[arg(long, global = true)]
        product: Option<String>,
    },
}

#[derive(Subcommand)]
enum FailuresAction {
    /// List them, oldest first.
    List,
    /// Fold them again, once what refused them is mended.
    Retry,
    /// Drop them for good.
    Discard,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,sqlx=warn,tower_http=info".into()),
        )
        .init();
    // One TLS provider for every client in the process (SMTP, Postgres, vendor APIs).
    let _ = rustls::crypto::ring::default_provider().install_default();

    let cli = Cli::parse();
    let config = Config::load()?;
    match cli.command {
        Command::Serve { demo } => {
            let state = app::state_from_config(config).await?;
            if demo {
                print_demo(&state).await?;
            }
            let listener = tokio::net::TcpListener::bind(state.config.listen).await?;
            tracing::info!(listen = %state.config.listen, public_url = %state.config.public_url(), "payback is serving");
            let (store, ingest) = (state.store.clone(), state.ingest.clone());
            app::serve(state, listener, app::shutdown_signal()).await?;
            app::close(&store, &ingest).await;
        }
        Command::Migrate => {
            app::state_from_config(config).await?;
            println!("migrations applied");
        }
        Command::Demo => {
            let state = app::state_from_config(config).await?;
            print_demo(&state).await?;
        }
        Command::Operator {
            command: OperatorCommand::Grant { email },
        } => {
            let state = app::state_from_config(config).await?;
            let accounts = operator::grant(&state, &email).await?;
            println!(
                "{email}: {} account(s) are now operator accounts: {}",
                accounts.len(),
                accounts.join(", ")
            );
        }
        Command::Operator {
            command: OperatorCommand::IngestFailures { action, product },
        } => {
            let state = app::state_from_config(config).await?;
            let product = product.as_deref();
            match action {
                FailuresAction::List => {
                    let failures = operator::ingest_failures(&state, product).await?;
                    for failure in &failures {
                        println!(
                            "batch {} of product {}, received {}, {} event(s): {}",
                            failure.inbox_id,
                            failure.product_id,
                            failure.received_at.to_rfc3339(),
                            failure.events,
                            failure.error
                        );
                    }
                    println!("{} set-aside batch(es)", failures.len());
                }
                FailuresAction::Retry => {
                    let outcome = operator::retry_ingest_failures(&state, product).await?;
                    println!(
                        "{} batch(es) stored, {} refused again (still listed)",
                        outcome.stored, outcome.refused
                    );
                }
                FailuresAction::Discard => {
                    let dropped = operator::discard_ingest_failures(&state, product).await?;
                    println!("{dropped} set-aside batch(es) discarded");
                }
            }
        }
    }
    Ok(())
}

async fn print_demo(state: &payback_server::AppState) -> anyhow::Result<()> {
    let access = demo::ensure_demo(state).await?;
    let url = state.config.public_url();
    println!();
    println!(
        "  Payback demo workspace {}",
        if access.created { "created" } else { "ready" }
    );
    println!(
        "  Sign in:   {url}/#/login  email {}  password {}",
        access.email,
        access.password.expose()
    );
    println!(
        "  API key:   {}   (a fresh one each run; the previous demo key is revoked)",
        access.api_key.expose()
    );
    println!(
        "  Try:       curl -s {url}/portfolio -H 'Authorization: Bearer {}'",
        access.api_key.expose()
    );
    println!(
        "  Report:    curl -s '{url}/products/pixel-pantry/attribution?days=30' -H 'Authorization: Bearer {}'",
        access.api_key.expose()
    );
    println!("  OpenAPI:   {url}/openapi.json");
    println!();
    Ok(())
}
