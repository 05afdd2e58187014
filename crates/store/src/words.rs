//! Reading nullable columns of a closed vocabulary typed. sqlx's `try_from` converts from a
//! type it decodes, and `Option<Enum>` cannot be converted from `Option<String>` outside the
//! standard library, so a nullable word is decoded as [`NullableWord`] first.

use payback_domain::roles::UnknownWord;

/// A nullable text column holding words of one vocabulary; `NULL` reads as `None`.
#[derive(Debug, Clone, sqlx::Type)]
#[sqlx(transparent, no_pg_array)]
pub struct NullableWord(Option<String>);

/// A word outside the vocabulary fails the read, the same as for a non-null column.
impl<T> TryFrom<NullableWord> for Option<T>
where
    T: TryFrom<String, Error = UnknownWord>,
{
    type Error = UnknownWord;

    fn try_from(word: NullableWord) -> Result<Self, UnknownWord> {
        word.0.map(T::try_from).transpose()
    }
}
