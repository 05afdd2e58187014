//! Presets: which fit a known schema (a Django project on PostgreSQL, a hand-made app on
//! MySQL), and that the maps they suggest read what the rows hold.

use super::*;

use payback_connectors::database::presets::{self, PresetError};
use payback_domain::event_map::MoneyUnit;

on_both!(presets_fit_a_known_schema_and_their_maps_read);

async fn presets_fit_a_known_schema_and_their_maps_read(backend: Backend) {
    let mut db = TestDb::create(backend).await;
    let pg = backend == Backend::Postgres;
    // PostgreSQL: a Django project (auth_user, an app's shop_order in decimal amounts).
    // MySQL: a hand-made app (customers with utm columns, payments in integer cents).
    let users = (0..9i64).map(|i| {
        (
            i + 1,
            T0 + i * 5 * HOUR + 17,
            format!("User{i}@Mail.Example"),
        )
    });
    let sales = (0..12i64).map(|i| {
        let currency = if i == 4 { "EUR" } else { "USD" };
        (
            100 + i,
            T0 + i * 3 * HOUR + 250_001,
            990 + i * 1001,
            currency,
            (i % 9) + 1,
        )
    });
    let (user_table, sale_table) = if pg {
        db.exec(
            "CREATE TABLE auth_user (id serial PRIMARY KEY, password varchar(128) NOT NULL, \
             last_login timestamptz, is_superuser boolean NOT NULL, username varchar(150) NOT NULL, \
             first_name varchar(150) NOT NULL, last_name varchar(150) NOT NULL, \
             email varchar(254) NOT NULL, is_staff boolean NOT NULL, is_active boolean NOT NULL, \
             date_joined timestamptz NOT NULL); \
             CREATE TABLE shop_order (id bigserial PRIMARY KEY, created timestamptz NOT NULL, \
             total numeric(10,2) NOT NULL, currency varchar(3) NOT NULL, \
             user_id integer REFERENCES auth_user (id), status varchar(20) NOT NULL)",
        )
        .await;
        for (id, at, email) in users.clone() {
            db.exec(&format!(
                "INSERT INTO auth_user (id, password, is_superuser, username, first_name, \
                 last_name, email, is_staff, is_active, date_joined) VALUES ({id}, 'x', false, \
                 'u{id}', 'Zoë', 'Ångström', {}, false, true, {})",
                quoted(&email),
                time_literal(at, true)
            ))
            .await;
        }
        for (id, at, cents, currency, user) in sales.clone() {
            db.exec(&format!(
                "INSERT INTO shop_order VALUES ({id}, {}, {}, '{currency}', {user}, 'paid')",
                time_literal(at, true),
                decimal(cents)
            ))
            .await;
        }
        ("auth_user", "shop_order")
    } else {
        db.exec(
            "CREATE TABLE customers (id INT AUTO_INCREMENT PRIMARY KEY, created_at DATETIME(6) NOT NULL, \
             email VARCHAR(200) NOT NULL, utm_source VARCHAR(100), utm_campaign VARCHAR(100)); \
             CREATE TABLE payments (id BIGINT PRIMARY KEY, paid_at DATETIME(6) NOT NULL, \
             created_at DATETIME NOT NULL, amount_cents INT NOT NULL, currency CHAR(3) NOT NULL, \
             customer_id INT NOT NULL)",
        )
        .await;
        for (id, at, email) in users.clone() {
            db.exec(&format!(
                "INSERT INTO customers VALUES ({id}, {}, {}, 'newsletter', 'spring')",
                time_literal(at, false),
                quoted(&email)
            ))
            .await;
        }
        for (id, at, cents, currency, user) in sales.clone() {
            db.exec(&format!(
                "INSERT INTO payments VALUES ({id}, {}, {}, {cents}, '{currency}', {user})",
                time_literal(at, false),
                time_literal(T0 - DAY, false)
            ))
            .await;
        }
        ("customers", "payments")
    };

    let summary = sql::describe(&db.config(), None).await.unwrap();
    let suggested = presets::suggest(&summary, None).unwrap();
    let fitting: Vec<&str> = suggested
        .presets
        .iter()
        .filter(|p| p.fits)
        .map(|p| p.id.as_str())
        .collect();
    assert_eq!(
        fitting,
        if pg {
            vec!["django", "orders"]
        } else {
            vec!["signups", "orders"]
        }
    );
    let maps = check_maps(suggested.suggestions.clone(), FieldSyntax::Column).unwrap();
    assert_eq!(maps.len(), 2);
    let (signup, payment) = (&maps[0], &maps[1]);
    assert_eq!(
        (signup.table.as_str(), signup.stage.as_str()),
        (user_table, "signup")
    );
    assert_eq!(
        (payment.table.as_str(), payment.stage.as_str()),
        (sale_table, "payment")
    );
    let revenue = payment.revenue.as_ref().unwrap();
    if pg {
        assert_eq!(signup.timestamp, "date_joined");
        assert_eq!(payment.timestamp, "created");
        assert_eq!(
            (revenue.column.as_str(), revenue.unit),
            ("total", MoneyUnit::Major)
        );
    } else {
        assert_eq!(signup.timestamp, "created_at");
        assert_eq!(
            signup.attribution.get("utm_source").map(String::as_str),
            Some("utm_source")
        );
        assert_eq!(payment.timestamp, "paid_at");
        assert_eq!(
            (revenue.column.as_str(), revenue.unit),
            ("amount_cents", MoneyUnit::Cents)
        );
    }
    assert_eq!(revenue.currency.as_deref(), Some("currency"));
    let only = presets::suggest(&summary, Some("orders")).unwrap();
    assert_eq!(only.suggestions, vec![payment.clone()]);
    assert_eq!(
        presets::suggest(&summary, Some("leads")).unwrap_err(),
        PresetError::DoesNotFit("leads".to_owned())
    );

    // The suggestions read what the rows hold.
    let (from, to) = (T0, T0 + DAY);
    let (_, sink) = run(&db.config(), &maps, window(from, to)).await.unwrap();
    let mut want: Vec<(String, Option<String>, Option<i64>)> = users
        .filter(|(_, at, _)| *at < to)
        .map(|(id, _, email)| (format!("{user_table}/signup:{id}"), Some(email), None))
        .collect();
    want.extend(
        sales
            .filter(|(_, at, _, currency, _)| *at < to && *currency == "USD")
            .map(|(id, _, cents, _, _)| (format!("{sale_table}/payment:{id}"), None, Some(cents))),
    );
    want.sort();
    let mut got: Vec<(String, Option<String>, Option<i64>)> = sink
        .events()
        .into_iter()
        .map(|e| (e.dedupe_id, e.email, e.value))
        .collect();
    got.sort();
    assert_eq!(got, want);
}
