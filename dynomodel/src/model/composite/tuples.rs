//! The tuple traits behind [`Composite`](super::Composite)'s typed conditions: which tuples are a
//! composite's parts, which are its leading parts, and which part follows them. Written out for up to
//! six parts (a composite of more is a compile error naming [`CompositeParts`]).
//!
//! Written out mechanically, one impl per pair of lengths: a change to one impl belongs in all of them.

use crate::error::ConversionError;
use crate::model::composite::CompositePart;

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

/// `Q` is a tuple of the first parts of `Self`, e.g. `()`, `(NaiveDate,)` and `(NaiveDate, u32)` of
/// `(NaiveDate, u32)`: what [`Composite::prefix`](super::Composite::prefix) takes.
#[diagnostic::on_unimplemented(
    message = "`{Q}` is not a tuple of the leading parts of a composite with parts `{Self}`",
    note = "pass the first parts in order, as a tuple: `()`, `(first,)`, `(first, second)`..."
)]
pub trait LeadingParts<Q> {}

/// `Q` is a tuple of the first parts of `Self` and `Next` the part after them: what the range
/// conditions of [`Composite`](super::Composite) take.
#[diagnostic::on_unimplemented(
    message = "`{Q}` is not a tuple of the leading parts of a composite with parts `{Self}` followed by another part",
    note = "a range bounds the part after the given ones, so pass fewer parts than the composite has"
)]
pub trait FollowingPart<Q> {
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

impl<A: CompositePart> CompositeParts for (A,) {
    const LEN: usize = 1;

    fn to_parts(&self) -> Vec<Result<String, ConversionError>> {
        vec![self.0.to_part()]
    }

    fn from_parts(pieces: &[String]) -> Result<Self, (usize, ConversionError)> {
        Ok((A::from_part(piece(pieces, 0)).map_err(|e| (0, e))?,))
    }
}

impl<A: CompositePart> LeadingParts<()> for (A,) {}

impl<A: CompositePart> LeadingParts<(A,)> for (A,) {}

impl<A: CompositePart> FollowingPart<()> for (A,) {
    type Next = A;
    const LAST: bool = true;
}

impl<A: CompositePart, B: CompositePart> CompositeParts for (A, B) {
    const LEN: usize = 2;

    fn to_parts(&self) -> Vec<Result<String, ConversionError>> {
        vec![self.0.to_part(), self.1.to_part()]
    }

    fn from_parts(pieces: &[String]) -> Result<Self, (usize, ConversionError)> {
        Ok((
            A::from_part(piece(pieces, 0)).map_err(|e| (0, e))?,
            B::from_part(piece(pieces, 1)).map_err(|e| (1, e))?,
        ))
    }
}

impl<A: CompositePart, B: CompositePart> LeadingParts<()> for (A, B) {}

impl<A: CompositePart, B: CompositePart> LeadingParts<(A,)> for (A, B) {}

impl<A: CompositePart, B: CompositePart> LeadingParts<(A, B)> for (A, B) {}

impl<A: CompositePart, B: CompositePart> FollowingPart<()> for (A, B) {
    type Next = A;
    const LAST: bool = false;
}

impl<A: CompositePart, B: CompositePart> FollowingPart<(A,)> for (A, B) {
    type Next = B;
    const LAST: bool = true;
}

impl<A: CompositePart, B: CompositePart, C: CompositePart> CompositeParts for (A, B, C) {
    const LEN: usize = 3;

    fn to_parts(&self) -> Vec<Result<String, ConversionError>> {
        vec![self.0.to_part(), self.1.to_part(), self.2.to_part()]
    }

    fn from_parts(pieces: &[String]) -> Result<Self, (usize, ConversionError)> {
        Ok((
            A::from_part(piece(pieces, 0)).map_err(|e| (0, e))?,
            B::from_part(piece(pieces, 1)).map_err(|e| (1, e))?,
            C::from_part(piece(pieces, 2)).map_err(|e| (2, e))?,
        ))
    }
}

impl<A: CompositePart, B: CompositePart, C: CompositePart> LeadingParts<()> for (A, B, C) {}

impl<A: CompositePart, B: CompositePart, C: CompositePart> LeadingParts<(A,)> for (A, B, C) {}

impl<A: CompositePart, B: CompositePart, C: CompositePart> LeadingParts<(A, B)> for (A, B, C) {}

impl<A: CompositePart, B: CompositePart, C: CompositePart> LeadingParts<(A, B, C)> for (A, B, C) {}

impl<A: CompositePart, B: CompositePart, C: CompositePart> FollowingPart<()> for (A, B, C) {
    type Next = A;
    const LAST: bool = false;
}

impl<A: CompositePart, B: CompositePart, C: CompositePart> FollowingPart<(A,)> for (A, B, C) {
    type Next = B;
    const LAST: bool = false;
}

impl<A: CompositePart, B: CompositePart, C: CompositePart> FollowingPart<(A, B)> for (A, B, C) {
    type Next = C;
    const LAST: bool = true;
}

impl<A: CompositePart, B: CompositePart, C: CompositePart, D: CompositePart> CompositeParts
    for (A, B, C, D)
{
    const LEN: usize = 4;

    fn to_parts(&self) -> Vec<Result<String, ConversionError>> {
        vec![
            self.0.to_part(),
            self.1.to_part(),
            self.2.to_part(),
            self.3.to_part(),
        ]
    }

    fn from_parts(pieces: &[String]) -> Result<Self, (usize, ConversionError)> {
        Ok((
            A::from_part(piece(pieces, 0)).map_err(|e| (0, e))?,
            B::from_part(piece(pieces, 1)).map_err(|e| (1, e))?,
            C::from_part(piece(pieces, 2)).map_err(|e| (2, e))?,
            D::from_part(piece(pieces, 3)).map_err(|e| (3, e))?,
        ))
    }
}

impl<A: CompositePart, B: CompositePart, C: CompositePart, D: CompositePart> LeadingParts<()>
    for (A, B, C, D)
{
}

impl<A: CompositePart, B: CompositePart, C: CompositePart, D: CompositePart> LeadingParts<(A,)>
    for (A, B, C, D)
{
}

impl<A: CompositePart, B: CompositePart, C: CompositePart, D: CompositePart> LeadingParts<(A, B)>
    for (A, B, C, D)
{
}

impl<A: CompositePart, B: CompositePart, C: CompositePart, D: CompositePart> LeadingParts<(A, B, C)>
    for (A, B, C, D)
{
}

impl<A: CompositePart, B: CompositePart, C: CompositePart, D: CompositePart>
    LeadingParts<(A, B, C, D)> for (A, B, C, D)
{
}

impl<A: CompositePart, B: CompositePart, C: CompositePart, D: CompositePart> FollowingPart<()>
    for (A, B, C, D)
{
    type Next = A;
    const LAST: bool = false;
}

impl<A: CompositePart, B: CompositePart, C: CompositePart, D: CompositePart> FollowingPart<(A,)>
    for (A, B, C, D)
{
    type Next = B;
    const LAST: bool = false;
}

impl<A: CompositePart, B: CompositePart, C: CompositePart, D: CompositePart> FollowingPart<(A, B)>
    for (A, B, C, D)
{
    type Next = C;
    const LAST: bool = false;
}

impl<A: CompositePart, B: CompositePart, C: CompositePart, D: CompositePart>
    FollowingPart<(A, B, C)> for (A, B, C, D)
{
    type Next = D;
    const LAST: bool = true;
}

impl<A: CompositePart, B: CompositePart, C: CompositePart, D: CompositePart, E: CompositePart>
    CompositeParts for (A, B, C, D, E)
{
    const LEN: usize = 5;

    fn to_parts(&self) -> Vec<Result<String, ConversionError>> {
        vec![
            self.0.to_part(),
            self.1.to_part(),
            self.2.to_part(),
            self.3.to_part(),
            self.4.to_part(),
        ]
    }

    fn from_parts(pieces: &[String]) -> Result<Self, (usize, ConversionError)> {
        Ok((
            A::from_part(piece(pieces, 0)).map_err(|e| (0, e))?,
            B::from_part(piece(pieces, 1)).map_err(|e| (1, e))?,
            C::from_part(piece(pieces, 2)).map_err(|e| (2, e))?,
            D::from_part(piece(pieces, 3)).map_err(|e| (3, e))?,
            E::from_part(piece(pieces, 4)).map_err(|e| (4, e))?,
        ))
    }
}

impl<A: CompositePart, B: CompositePart, C: CompositePart, D: CompositePart, E: CompositePart>
    LeadingParts<()> for (A, B, C, D, E)
{
}

impl<A: CompositePart, B: CompositePart, C: CompositePart, D: CompositePart, E: CompositePart>
    LeadingParts<(A,)> for (A, B, C, D, E)
{
}

impl<A: CompositePart, B: CompositePart, C: CompositePart, D: CompositePart, E: CompositePart>
    LeadingParts<(A, B)> for (A, B, C, D, E)
{
}

impl<A: CompositePart, B: CompositePart, C: CompositePart, D: CompositePart, E: CompositePart>
    LeadingParts<(A, B, C)> for (A, B, C, D, E)
{
}

impl<A: CompositePart, B: CompositePart, C: CompositePart, D: CompositePart, E: CompositePart>
    LeadingParts<(A, B, C, D)> for (A, B, C, D, E)
{
}

impl<A: CompositePart, B: CompositePart, C: CompositePart, D: CompositePart, E: CompositePart>
    LeadingParts<(A, B, C, D, E)> for (A, B, C, D, E)
{
}

impl<A: CompositePart, B: CompositePart, C: CompositePart, D: CompositePart, E: CompositePart>
    FollowingPart<()> for (A, B, C, D, E)
{
    type Next = A;
    const LAST: bool = false;
}

impl<A: CompositePart, B: CompositePart, C: CompositePart, D: CompositePart, E: CompositePart>
    FollowingPart<(A,)> for (A, B, C, D, E)
{
    type Next = B;
    const LAST: bool = false;
}

impl<A: CompositePart, B: CompositePart, C: CompositePart, D: CompositePart, E: CompositePart>
    FollowingPart<(A, B)> for (A, B, C, D, E)
{
    type Next = C;
    const LAST: bool = false;
}

impl<A: CompositePart, B: CompositePart, C: CompositePart, D: CompositePart, E: CompositePart>
    FollowingPart<(A, B, C)> for (A, B, C, D, E)
{
    type Next = D;
    const LAST: bool = false;
}

impl<A: CompositePart, B: CompositePart, C: CompositePart, D: CompositePart, E: CompositePart>
    FollowingPart<(A, B, C, D)> for (A, B, C, D, E)
{
    type Next = E;
    const LAST: bool = true;
}

impl<
        A: CompositePart,
        B: CompositePart,
        C: CompositePart,
        D: CompositePart,
        E: CompositePart,
        F: CompositePart,
    > CompositeParts for (A, B, C, D, E, F)
{
    const LEN: usize = 6;

    fn to_parts(&self) -> Vec<Result<String, ConversionError>> {
        vec![
            self.0.to_part(),
            self.1.to_part(),
            self.2.to_part(),
            self.3.to_part(),
            self.4.to_part(),
            self.5.to_part(),
        ]
    }

    fn from_parts(pieces: &[String]) -> Result<Self, (usize, ConversionError)> {
        Ok((
            A::from_part(piece(pieces, 0)).map_err(|e| (0, e))?,
            B::from_part(piece(pieces, 1)).map_err(|e| (1, e))?,
            C::from_part(piece(pieces, 2)).map_err(|e| (2, e))?,
            D::from_part(piece(pieces, 3)).map_err(|e| (3, e))?,
            E::from_part(piece(pieces, 4)).map_err(|e| (4, e))?,
            F::from_part(piece(pieces, 5)).map_err(|e| (5, e))?,
        ))
    }
}

impl<
        A: CompositePart,
        B: CompositePart,
        C: CompositePart,
        D: CompositePart,
        E: CompositePart,
        F: CompositePart,
    > LeadingParts<()> for (A, B, C, D, E, F)
{
}

impl<
        A: CompositePart,
        B: CompositePart,
        C: CompositePart,
        D: CompositePart,
        E: CompositePart,
        F: CompositePart,
    > LeadingParts<(A,)> for (A, B, C, D, E, F)
{
}

impl<
        A: CompositePart,
        B: CompositePart,
        C: CompositePart,
        D: CompositePart,
        E: CompositePart,
        F: CompositePart,
    > LeadingParts<(A, B)> for (A, B, C, D, E, F)
{
}

impl<
        A: CompositePart,
        B: CompositePart,
        C: CompositePart,
        D: CompositePart,
        E: CompositePart,
        F: CompositePart,
    > LeadingParts<(A, B, C)> for (A, B, C, D, E, F)
{
}

impl<
        A: CompositePart,
        B: CompositePart,
        C: CompositePart,
        D: CompositePart,
        E: CompositePart,
        F: CompositePart,
    > LeadingParts<(A, B, C, D)> for (A, B, C, D, E, F)
{
}

impl<
        A: CompositePart,
        B: CompositePart,
        C: CompositePart,
        D: CompositePart,
        E: CompositePart,
        F: CompositePart,
    > LeadingParts<(A, B, C, D, E)> for (A, B, C, D, E, F)
{
}

impl<
        A: CompositePart,
        B: CompositePart,
        C: CompositePart,
        D: CompositePart,
        E: CompositePart,
        F: CompositePart,
    > LeadingParts<(A, B, C, D, E, F)> for (A, B, C, D, E, F)
{
}

impl<
        A: CompositePart,
        B: CompositePart,
        C: CompositePart,
        D: CompositePart,
        E: CompositePart,
        F: CompositePart,
    > FollowingPart<()> for (A, B, C, D, E, F)
{
    type Next = A;
    const LAST: bool = false;
}

impl<
        A: CompositePart,
        B: CompositePart,
        C: CompositePart,
        D: CompositePart,
        E: CompositePart,
        F: CompositePart,
    > FollowingPart<(A,)> for (A, B, C, D, E, F)
{
    type Next = B;
    const LAST: bool = false;
}

impl<
        A: CompositePart,
        B: CompositePart,
        C: CompositePart,
        D: CompositePart,
        E: CompositePart,
        F: CompositePart,
    > FollowingPart<(A, B)> for (A, B, C, D, E, F)
{
    type Next = C;
    const LAST: bool = false;
}

impl<
        A: CompositePart,
        B: CompositePart,
        C: CompositePart,
        D: CompositePart,
        E: CompositePart,
        F: CompositePart,
    > FollowingPart<(A, B, C)> for (A, B, C, D, E, F)
{
    type Next = D;
    const LAST: bool = false;
}

impl<
        A: CompositePart,
        B: CompositePart,
        C: CompositePart,
        D: CompositePart,
        E: CompositePart,
        F: CompositePart,
    > FollowingPart<(A, B, C, D)> for (A, B, C, D, E, F)
{
    type Next = E;
    const LAST: bool = false;
}

impl<
        A: CompositePart,
        B: CompositePart,
        C: CompositePart,
        D: CompositePart,
        E: CompositePart,
        F: CompositePart,
    > FollowingPart<(A, B, C, D, E)> for (A, B, C, D, E, F)
{
    type Next = F;
    const LAST: bool = true;
}
