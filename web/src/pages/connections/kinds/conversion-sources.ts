// The kinds a conversion may be sourced from (the server's `conversions::SOURCES`), for the
// funnel's conversion form. Kind words live in this folder only.

export const CONVERSION_SOURCES = ['sql_a', 'sql_b', 'docdb', 'analytics_a', 'payments'] as const;
