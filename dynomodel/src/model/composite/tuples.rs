//! The tuple traits behind [`Composite`](super::Composite)'s typed conditions: which tuples are a
//! composite's parts, which are its leading parts, and which part follows them. Written out for up to
//! six parts (a composite of more is a compile error naming [`CompositeParts`]).
//!
//! The impls come from two macros, one per trait family, instantiated for each length.

use crate::error::ConversionError;
use crate::model::composite::CompositePart;
use crate::model::IntoKey;

/// A tuple of composite parts, `(NaiveDate, u32)`: the type parameter of a
/// [`Composite`](super::Composite) handle. Implemented for tuples of up to six [`CompositePart`]s.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tuple of composite parts",
    note = "a composite has at most six parts, each a CompositePart (String, u8-u64, NaiveDate, DateTime<Utc>)"
)]
pub trait CompositeParts: Sized {
    /// The number of parts.
    const LEN: usize;

    /// Each part's text.
    fn to_parts(&self) -> Vec<Result<String, ConversionError>>;

    /// The parts from their texts (exactly `LEN`); an error carries the failing part's index.
    fn from_parts(pieces: &[String]) -> Result<Self, (usize, ConversionError)>;
}

/// `Q` gives the first parts of `Self`, e.g. `()`, `(NaiveDate,)` and `(NaiveDate, u32)` of
/// `(NaiveDate, u32)`: what [`Composite::prefix`](super::Composite::prefix) takes. Each given value
/// is an [`IntoKey`] of its part, so `("u1",)` gives a `String` part.
#[diagnostic::on_unimplemented(
    message = "`{Q}` is not a tuple of the leading parts of a composite with parts `{Self}`",
    note = "pass the first parts in order, as a tuple: `()`, `(first,)`, `(first, second)`..."
)]
pub trait LeadingParts<Q> {
    /// The leading parts' types, `(NaiveDate,)`.
    type Leading: CompositeParts;

    /// The given values as the parts.
    fn leading(values: Q) -> Self::Leading;
}

/// `Q` gives the first parts of `Self` and `Next` is the part after them: what the range
/// conditions of [`Composite`](super::Composite) take.
#[diagnostic::on_unimplemented(
    message = "`{Q}` is not a tuple of the leading parts of a composite with parts `{Self}` followed by another part",
    note = "a range bounds the part after the given ones, so pass fewer parts than the composite has"
)]
pub trait FollowingPart<Q>: LeadingParts<Q> {
    /// The part after `Q`.
    type Next: CompositePart;
    /// Whether `Next` is the last part.
    const LAST: bool;
}

/// Part `index`'s text (`""` past the end: `from_parts` gets exactly `LEN` texts from `split`).
fn piece(pieces: &[String], index: usize) -> &str {
    pieces.get(index).map_or("", String::as_str)
}

impl CompositeParts for () {
    const LEN: usize = 0;

    fn to_parts(&self) -> Vec<Result<String, ConversionError>> {
        Vec::new()
    }

    fn from_parts(_: &[String]) -> Result<Self, (usize, ConversionError)> {
        Ok(())
    }
}

/// `CompositeParts` for the tuple of `$T`s, whose fields are `$i`; `$X` names the type given for
/// each in conditions.
macro_rules! composite_parts {
    ($len:literal; $($T:ident $X:ident $i:tt),+) => {
        impl<$($T: CompositePart),+> CompositeParts for ($($T,)+) {
            const LEN: usize = $len;

            fn to_parts(&self) -> Vec<Result<String, ConversionError>> {
                vec![$(self.$i.to_part()),+]
            }

            fn from_parts(pieces: &[String]) -> Result<Self, (usize, ConversionError)> {
                Ok(($($T::from_part(piece(pieces, $i)).map_err(|e| ($i, e))?,)+))
            }
        }

        leading_parts!([$($T)+] [] [$($T $X $i)+]);
    };
}

/// `LeadingParts<Q>` and `FollowingPart<Q>` of the tuple of `$All` for each prefix `Q` (given as
/// `$X`s converting to the `$P`s): walks the parts, moving one from `$Rest` to the prefix at each
/// step.
macro_rules! leading_parts {
    ([$($All:ident)+] [$($P:ident $X:ident $i:tt)*] []) => {
        leading_parts!(@leading [$($All)+] [$($P $X $i)*]);
    };
    ([$($All:ident)+] [$($P:ident $X:ident $i:tt)*] [$Next:ident $NX:ident $ni:tt $($Rest:ident $RX:ident $ri:tt)*]) => {
        leading_parts!(@leading [$($All)+] [$($P $X $i)*]);

        impl<$($All: CompositePart,)+ $($X: IntoKey<$P>,)*> FollowingPart<($($X,)*)> for ($($All,)+) {
            type Next = $Next;
            const LAST: bool = <[&str]>::is_empty(&[$(stringify!($Rest)),*]);
        }

        leading_parts!([$($All)+] [$($P $X $i)* $Next $NX $ni] [$($Rest $RX $ri)*]);
    };
    (@leading [$($All:ident)+] [$($P:ident $X:ident $i:tt)*]) => {
        impl<$($All: CompositePart,)+ $($X: IntoKey<$P>,)*> LeadingParts<($($X,)*)> for ($($All,)+) {
            type Leading = ($($P,)*);

            #[allow(clippy::unused_unit)]
            fn leading(values: ($($X,)*)) -> Self::Leading {
                let _ = &values;
                ($(values.$i.into_key(),)*)
            }
        }
    };
}

composite_parts!(1; A X0 0);
composite_parts!(2; A X0 0, B X1 1);
composite_parts!(3; A X0 0, B X1 1, C X2 2);
composite_parts!(4; A X0 0, B X1 1, C X2 2, D X3 3);
composite_parts!(5; A X0 0, B X1 1, C X2 2, D X3 3, E X4 4);
composite_parts!(6; A X0 0, B X1 1, C X2 2, D X3 3, E X4 4, F X5 5);
