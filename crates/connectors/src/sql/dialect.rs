//! What differs between PostgreSQL and MySQL/MariaDB in the statements the connector writes:
//! identifier quoting, placeholders, how a column is read out (text, or epoch microseconds for
//! times) and how a bound text parameter is cast to a column's type.

use payback_domain::Timestamp;

use crate::database::schema::ColumnKind;

/// `sql_a` is PostgreSQL, `sql_b` MySQL or MariaDB.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Postgres,
    MySql,
}

impl Dialect {
    pub fn default_port(self) -> u16 {
        match self {
            Self::Postgres => 5432,
            Self::MySql => 3306,
        }
    }

    /// An identifier quoted for this dialect. Names reaching here passed `check_maps` or come
    /// from the server's own catalog; quoting still doubles the quote character.
    pub(crate) fn quote(self, identifier: &str) -> String {
        match self {
            Self::Postgres => format!("\"{}\"", identifier.replace('"', "\"\"")),
            Self::MySql => format!("`{}`", identifier.replace('`', "``")),
        }
    }

    /// The placeholder of the `index`-th (1-based) bound parameter.
    pub(crate) fn placeholder(self, index: usize) -> String {
        match self {
            Self::Postgres => format!("${index}"),
            Self::MySql => "?".to_owned(),
        }
    }

    /// The column read out as the connector decodes it: times as exact epoch microseconds
    /// (`timestamp without time zone` and `DATETIME` taken as UTC, dates as midnight UTC),
    /// everything else as the server's own text for the value.
    pub(crate) fn read_expression(self, column: &str, column_type: ColumnType) -> String {
        let quoted = self.quote(column);
        match (self, column_type) {
            // Whole seconds and the microseconds within them separately: exact on servers
            // whose EXTRACT still answers a double (before 14).
            (Self::Postgres, ColumnType::Time) => {
                let at = format!("CAST({quoted} AS timestamptz)");
                format!(
                    "(CAST(EXTRACT(EPOCH FROM date_trunc('second', {at})) AS bigint) * 1000000 \
                     + CAST(EXTRACT(MICROSECONDS FROM {at}) AS bigint) % 1000000)"
                )
            }
            (Self::Postgres, _) => format!("CAST({quoted} AS text)"),
            (Self::MySql, ColumnType::Time) => {
                format!("TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', {quoted})")
            }
            (Self::MySql, _) => format!("CAST({quoted} AS CHAR)"),
        }
    }

    /// A bound text parameter cast so it compares with the column in the column's own type
    /// (and, for text, under the column's collation).
    pub(crate) fn cast_parameter(self, placeholder: &str, column: &ColumnInfo) -> String {
        match self {
            Self::Postgres => match column.column_type {
                ColumnType::Time => format!("CAST({placeholder} AS timestamptz)"),
                _ => format!("CAST({placeholder} AS {})", column.cast_type),
            },
            Self::MySql => match column.column_type {
                ColumnType::Integer { unsigned: true } => {
                    format!("CAST({placeholder} AS UNSIGNED)")
                }
                ColumnType::Integer { unsigned: false } | ColumnType::Boolean => {
                    format!("CAST({placeholder} AS SIGNED)")
                }
                ColumnType::Decimal => format!("CAST({placeholder} AS DECIMAL(65,30))"),
                ColumnType::Time => format!("CAST({placeholder} AS DATETIME(6))"),
                ColumnType::Float | ColumnType::Text | ColumnType::Other => placeholder.to_owned(),
            },
        }
    }

    /// An instant as a parameter the time casts above read exactly: UTC, microseconds.
    pub(crate) fn time_parameter(self, micros: i64) -> Option<String> {
        let nanos = i128::from(micros) * 1_000;
        let at = time::OffsetDateTime::from_unix_timestamp_nanos(nanos).ok()?;
        let (date, clock) = (at.date(), at.time());
        let text = format!(
            "{:04}-{:02}-{:02} {:02}:{:02}:{:02}.{:06}",
            date.year(),
            u8::from(date.month()),
            date.day(),
            clock.hour(),
            clock.minute(),
            clock.second(),
            clock.microsecond()
        );
        Some(match self {
            Self::Postgres => format!("{text}+00"),
            // MariaDB reads no offset in a DATETIME; the session's zone is UTC.
            Self::MySql => text,
        })
    }

    /// A filter value as bound text.
    pub(crate) fn value_text(self, value: &serde_json::Value, column: &ColumnInfo) -> String {
        match value {
            serde_json::Value::String(text) => text.clone(),
            serde_json::Value::Bool(flag) => match (self, column.column_type) {
                (Self::MySql, ColumnType::Integer { .. } | ColumnType::Boolean) => {
                    u8::from(*flag).to_string()
                }
                _ => flag.to_string(),
            },
            other => other.to_string(),
        }
    }

    /// `PostgreSQL` or `MySQL` (the version string says MariaDB when it is one).
    pub(crate) fn product(self) -> &'static str {
        match self {
            Self::Postgres => "PostgreSQL",
            Self::MySql => "MySQL",
        }
    }
}

/// Microseconds since the epoch of a window bound.
pub(crate) fn micros(at: Timestamp) -> i64 {
    at.millis().saturating_mul(1_000)
}

/// How the connector reads a column, decided from its real type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ColumnType {
    Integer {
        unsigned: bool,
    },
    Decimal,
    Float,
    Boolean,
    /// Timestamps with or without time zone, datetimes and dates.
    Time,
    Text,
    Other,
}

impl ColumnType {
    /// From PostgreSQL's base type name (`pg_type.typname`, domains resolved) and type kind
    /// (`typtype`: `e` for enums).
    pub(crate) fn postgres(type_name: &str, type_kind: &str) -> Self {
        match type_name {
            "int2" | "int4" | "int8" => Self::Integer { unsigned: false },
            "numeric" => Self::Decimal,
            "float4" | "float8" => Self::Float,
            "bool" => Self::Boolean,
            "timestamptz" | "timestamp" | "date" => Self::Time,
            "text" | "varchar" | "bpchar" | "char" | "name" | "uuid" | "citext" => Self::Text,
            _ if type_kind == "e" => Self::Text,
            _ => Self::Other,
        }
    }

    /// From MySQL's `DATA_TYPE` and `COLUMN_TYPE` (`tinyint(1)` is MySQL's boolean).
    pub(crate) fn mysql(data_type: &str, column_type: &str) -> Self {
        let column_type = column_type.to_ascii_lowercase();
        match data_type.to_ascii_lowercase().as_str() {
            "tinyint" if column_type.starts_with("tinyint(1)") => Self::Boolean,
            "tinyint" | "smallint" | "mediumint" | "int" | "integer" | "bigint" | "year" => {
                Self::Integer {
                    unsigned: column_type.contains("unsigned"),
                }
            }
            "decimal" | "numeric" => Self::Decimal,
            "float" | "double" | "real" | "double precision" => Self::Float,
            "datetime" | "timestamp" | "date" => Self::Time,
            "char" | "varchar" | "tinytext" | "text" | "mediumtext" | "longtext" | "enum"
            | "set" => Self::Text,
            _ => Self::Other,
        }
    }

    /// The coarse kind presets and the model reason about.
    pub(crate) fn kind(self) -> ColumnKind {
        match self {
            Self::Integer { .. } => ColumnKind::Integer,
            Self::Decimal | Self::Float => ColumnKind::Decimal,
            Self::Boolean => ColumnKind::Boolean,
            Self::Time => ColumnKind::Timestamp,
            Self::Text => ColumnKind::Text,
            Self::Other => ColumnKind::Other,
        }
    }
}

/// One column as the catalog describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ColumnInfo {
    pub name: String,
    /// The server's own spelling, for the schema summary (`numeric(10,2)`).
    pub data_type: String,
    /// PostgreSQL: the type without modifiers, as a cast target (`numeric`, `"MyEnum"`).
    pub cast_type: String,
    pub column_type: ColumnType,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn column(column_type: ColumnType, cast_type: &str) -> ColumnInfo {
        ColumnInfo {
            name: "c".to_owned(),
            data_type: cast_type.to_owned(),
            cast_type: cast_type.to_owned(),
            column_type,
        }
    }

    #[test]
    fn identifiers_are_quoted_per_dialect() {
        assert_eq!(Dialect::Postgres.quote("orders"), "\"orders\"");
        assert_eq!(Dialect::Postgres.quote("a\"b"), "\"a\"\"b\"");
        assert_eq!(Dialect::MySql.quote("orders"), "`orders`");
        assert_eq!(Dialect::MySql.quote("a`b"), "`a``b`");
        assert_eq!(Dialect::Postgres.placeholder(3), "$3");
        assert_eq!(Dialect::MySql.placeholder(3), "?");
    }

    #[test]
    fn instants_become_exact_utc_parameters() {
        // 2026-01-02T03:04:05.123456Z
        let micros = 1_767_323_045_123_456;
        assert_eq!(
            Dialect::Postgres.time_parameter(micros).as_deref(),
            Some("2026-01-02 03:04:05.123456+00")
        );
        assert_eq!(
            Dialect::MySql.time_parameter(micros).as_deref(),
            Some("2026-01-02 03:04:05.123456")
        );
        assert_eq!(
            Dialect::MySql.time_parameter(-1).as_deref(),
            Some("1969-12-31 23:59:59.999999")
        );
    }

    #[test]
    fn types_classify_by_their_real_names() {
        assert_eq!(
            ColumnType::postgres("int8", "b"),
            ColumnType::Integer { unsigned: false }
        );
        assert_eq!(ColumnType::postgres("numeric", "b"), ColumnType::Decimal);
        assert_eq!(ColumnType::postgres("order_status", "e"), ColumnType::Text);
        assert_eq!(ColumnType::postgres("jsonb", "b"), ColumnType::Other);
        assert_eq!(
            ColumnType::mysql("tinyint", "tinyint(1)"),
            ColumnType::Boolean
        );
        assert_eq!(
            ColumnType::mysql("bigint", "bigint(20) unsigned"),
            ColumnType::Integer { unsigned: true }
        );
        assert_eq!(
            ColumnType::mysql("datetime", "datetime(6)"),
            ColumnType::Time
        );
        assert_eq!(ColumnType::mysql("blob", "blob"), ColumnType::Other);
        assert_eq!(ColumnType::Float.kind(), ColumnKind::Decimal);
    }

    #[test]
    fn parameters_are_cast_to_the_column_type() {
        let amount = column(ColumnType::Decimal, "numeric");
        assert_eq!(
            Dialect::Postgres.cast_parameter("$1", &amount),
            "CAST($1 AS numeric)"
        );
        assert_eq!(
            Dialect::MySql.cast_parameter("?", &amount),
            "CAST(? AS DECIMAL(65,30))"
        );
        let flag = column(ColumnType::Boolean, "boolean");
        let yes = serde_json::Value::Bool(true);
        assert_eq!(Dialect::MySql.value_text(&yes, &flag), "1");
        assert_eq!(Dialect::Postgres.value_text(&yes, &flag), "true");
        let number = serde_json::json!(19.5);
        assert_eq!(Dialect::Postgres.value_text(&number, &amount), "19.5");
    }
}
