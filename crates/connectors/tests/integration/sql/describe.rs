//! The schema summary: tables and views in the default schema up to `DEFAULT_TABLES`, column
//! kinds and server types, row estimates, and a named subset across schemas.

use super::*;

use payback_connectors::database::schema::{ColumnKind, DEFAULT_TABLES};

on_both!(describe_lists_tables_columns_and_subsets);

async fn describe_lists_tables_columns_and_subsets(backend: Backend) {
    let mut db = TestDb::create(backend).await;
    let pg = backend == Backend::Postgres;
    let analytics = db.schema("analytics").await;
    let mut ddl: Vec<String> = (0..33)
        .map(|i| format!("CREATE TABLE t{i:02} (id int, label varchar(20))"))
        .collect();
    ddl.push(if pg {
        "CREATE TABLE customers (id bigint PRIMARY KEY, email varchar(200), \
         balance numeric(10,2), active boolean, joined timestamptz, birthday date, \
         ratio double precision, meta jsonb)"
            .to_owned()
    } else {
        "CREATE TABLE customers (id BIGINT PRIMARY KEY, email VARCHAR(200), \
         balance DECIMAL(10,2), active BOOLEAN, joined DATETIME(6), birthday DATE, \
         ratio DOUBLE, meta BLOB)"
            .to_owned()
    });
    ddl.push("CREATE VIEW paid_orders AS SELECT id FROM t00".to_owned());
    ddl.push(format!(
        "CREATE TABLE {analytics}.sessions (id int, started_at {})",
        if pg { "timestamptz" } else { "DATETIME" }
    ));
    ddl.push(
        "INSERT INTO customers (id, email) VALUES (1, 'a@x.io'), (2, 'b@x.io'), (3, NULL)"
            .to_owned(),
    );
    ddl.push(
        if pg {
            "ANALYZE customers"
        } else {
            "ANALYZE TABLE customers"
        }
        .to_owned(),
    );
    db.exec(&ddl.join("; ")).await;
    let total_tables = 33 + 1 + 1 + 1;

    let summary = sql::describe(&db.config(), None).await.unwrap();
    let names: Vec<String> = summary.tables.iter().map(|t| t.name.clone()).collect();
    let mut want = vec!["customers".to_owned(), "paid_orders".to_owned()];
    want.extend((0..28).map(|i| format!("t{i:02}")));
    assert_eq!(names, want);
    assert_eq!(summary.tables.len(), DEFAULT_TABLES);
    assert_eq!(summary.more_tables, total_tables - DEFAULT_TABLES);
    assert!(summary.tables.iter().all(|t| t.schema.is_none()));

    let customers = &summary.tables[0];
    assert_eq!(customers.row_estimate, Some(3));
    assert_eq!(summary.tables[1].row_estimate, None);
    let columns: Vec<(&str, ColumnKind)> = customers
        .columns
        .iter()
        .map(|c| (c.name.as_str(), c.kind))
        .collect();
    assert_eq!(
        columns,
        vec![
            ("id", ColumnKind::Integer),
            ("email", ColumnKind::Text),
            ("balance", ColumnKind::Decimal),
            ("active", ColumnKind::Boolean),
            ("joined", ColumnKind::Timestamp),
            ("birthday", ColumnKind::Timestamp),
            ("ratio", ColumnKind::Decimal),
            ("meta", ColumnKind::Other),
        ]
    );
    let types: Vec<&str> = customers
        .columns
        .iter()
        .map(|c| c.data_type.as_str())
        .collect();
    if pg {
        assert_eq!(
            types,
            vec![
                "bigint",
                "character varying(200)",
                "numeric(10,2)",
                "boolean",
                "timestamp with time zone",
                "date",
                "double precision",
                "jsonb"
            ]
        );
    } else {
        let prefixes = [
            "bigint",
            "varchar(200)",
            "decimal(10,2)",
            "tinyint(1)",
            "datetime(6)",
            "date",
            "double",
            "blob",
        ];
        for (data_type, prefix) in types.iter().zip(prefixes) {
            assert!(data_type.starts_with(prefix), "{data_type} vs {prefix}");
        }
    }

    let subset = [
        "t05".to_owned(),
        format!("{analytics}.sessions"),
        "CUSTOMERS".to_owned(),
    ];
    let summary = sql::describe(&db.config(), Some(&subset)).await.unwrap();
    let named: Vec<(Option<String>, String)> = summary
        .tables
        .iter()
        .map(|t| (t.schema.clone(), t.name.clone()))
        .collect();
    assert_eq!(
        named,
        vec![
            (None, "t05".to_owned()),
            (Some(analytics.clone()), "sessions".to_owned()),
            (None, "customers".to_owned()),
        ]
    );
    assert_eq!(summary.more_tables, total_tables - 3);
    let sessions = &summary.tables[1];
    assert_eq!(sessions.columns[1].name, "started_at");
    assert_eq!(sessions.columns[1].kind, ColumnKind::Timestamp);

    let unknown = [
        "t05".to_owned(),
        "nope".to_owned(),
        format!("{analytics}.t05"),
    ];
    let err = sql::describe(&db.config(), Some(&unknown))
        .await
        .expect_err("unknown names");
    assert!(
        matches!(&err, ConnectorError::Config(m)
            if m.starts_with(&format!("unknown tables: `nope`, `{analytics}.t05`"))),
        "{err:?}"
    );
}
