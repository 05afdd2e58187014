//! Semrush's Analytics API v3 answers as documented in its basic docs: a report is `;`-separated
//! CSV whose first line names the columns (the response names of the `export_columns` codes, e.g.
//! `Rk` is `Rank`, `Ph` is `Keyword`), lines ending `\r\n`, cells wrapped in `"` when
//! `export_escape=1` was asked; an error is a body `ERROR NN :: TEXT`.

/// A report's rows, by the columns its header names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

/// One documented column: its `export_columns` code and the name the header line gives it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Column {
    pub code: &'static str,
    pub name: &'static str,
}

pub(crate) const RANK: Column = Column {
    code: "Rk",
    name: "Rank",
};
pub(crate) const ORGANIC_KEYWORDS: Column = Column {
    code: "Or",
    name: "Organic Keywords",
};
pub(crate) const ORGANIC_TRAFFIC: Column = Column {
    code: "Ot",
    name: "Organic Traffic",
};
pub(crate) const KEYWORD: Column = Column {
    code: "Ph",
    name: "Keyword",
};
pub(crate) const POSITION: Column = Column {
    code: "Po",
    name: "Position",
};
pub(crate) const SEARCH_VOLUME: Column = Column {
    code: "Nq",
    name: "Search Volume",
};
pub(crate) const URL: Column = Column {
    code: "Ur",
    name: "Url",
};
pub(crate) const TRAFFIC_PERCENT: Column = Column {
    code: "Tr",
    name: "Traffic (%)",
};

/// The `export_columns` value asking for `columns`, in that order.
pub(crate) fn export_columns(columns: &[Column]) -> String {
    columns
        .iter()
        .map(|column| column.code)
        .collect::<Vec<_>>()
        .join(",")
}

impl Table {
    /// The CSV of a report. A body without a header line is not one.
    pub fn parse(body: &str) -> Option<Self> {
        let mut lines = body
            .split('\n')
            .map(|line| line.trim_end_matches('\r'))
            .filter(|line| !line.trim().is_empty());
        let header = cells(lines.next()?);
        let rows = lines.map(cells).collect();
        Some(Self { header, rows })
    }

    /// Where `column` is, found by its response name or by its code (either case), so a header
    /// written either way reads the same.
    pub fn position(&self, column: Column) -> Option<usize> {
        self.header.iter().position(|name| {
            name.eq_ignore_ascii_case(column.name) || name.eq_ignore_ascii_case(column.code)
        })
    }

    pub fn rows(&self) -> &[Vec<String>] {
        &self.rows
    }
}

/// The cells of one line: split at `;` outside quotes (an escaped cell may hold one), each
/// without its quotes.
fn cells(line: &str) -> Vec<String> {
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => cells.push(std::mem::take(&mut cell).trim().to_owned()),
            c => cell.push(c),
        }
    }
    cells.push(cell.trim().to_owned());
    cells
}

/// An error body, `ERROR 50 :: NOTHING FOUND`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SemrushError {
    pub code: u32,
    /// The whole body as Semrush wrote it, `ERROR NN :: TEXT`.
    pub line: String,
}

/// `ERROR 50`: the report has no rows. Not a failure: a domain Semrush holds no data for.
pub(crate) const NOTHING_FOUND: u32 = 50;

/// Codes that refuse the key itself: 120 `WRONG KEY - ID PAIR`, 121 (a malformed hash), 122
/// `WRONG FORMAT OR EMPTY KEY`, 70 (the key's hash failed).
pub(crate) const REFUSED_KEY_CODES: [u32; 4] = [70, 120, 121, 122];

impl SemrushError {
    /// The error a body states, if it is one.
    pub fn parse(body: &str) -> Option<Self> {
        let line = body.trim();
        let rest = line.strip_prefix("ERROR")?.trim_start();
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let code = digits.parse().ok()?;
        Some(Self {
            code,
            line: line.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_reads_by_response_name_or_code() {
        let table = Table::parse(
            "Keyword;Position;Search Volume;Url;Traffic (%)\r\n\
             payback;3;2400;https://shop.example/;12.50\r\n\
             \"cac; calculator\";7;880;https://shop.example/cac;1.10\r\n",
        )
        .unwrap();
        assert_eq!(table.position(KEYWORD), Some(0));
        assert_eq!(table.position(TRAFFIC_PERCENT), Some(4));
        assert_eq!(table.rows().len(), 2);
        assert_eq!(table.rows()[0][3], "https://shop.example/");
        assert_eq!(table.rows()[1][0], "cac; calculator");
        let coded = Table::parse("Ph;Po\npayback;3").unwrap();
        assert_eq!(coded.position(POSITION), Some(1));
        assert_eq!(coded.position(URL), None);
        assert!(Table::parse("\r\n").is_none());
        assert_eq!(export_columns(&[RANK, ORGANIC_KEYWORDS]), "Rk,Or");
    }

    #[test]
    fn error_bodies_parse() {
        let error = SemrushError::parse("ERROR 50 :: NOTHING FOUND\n").unwrap();
        assert_eq!(error.code, NOTHING_FOUND);
        assert_eq!(error.line, "ERROR 50 :: NOTHING FOUND");
        let error = SemrushError::parse("ERROR 120 :: WRONG KEY - ID PAIR").unwrap();
        assert!(REFUSED_KEY_CODES.contains(&error.code));
        assert!(SemrushError::parse("Domain;Rank\r\nshop.example;1").is_none());
        assert!(SemrushError::parse("ERROR :: ?").is_none());
    }
}
