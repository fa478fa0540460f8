//! `datetime = "millis"`, on a field or on the struct: the width a `DateTime<Utc>` is stored at
//! (`dynomodel::convert::datetime`). Which fields it may apply to is checked by `check::datetime`
//! and, for the field's type, by the compiler through `DateTimeField`.

use syn::meta::ParseNestedMeta;
use syn::LitStr;

use crate::attr::{Errors, Spanned};

/// A stored width: the number of fractional digits of the seconds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Width {
    Seconds,
    Millis,
    Micros,
    Nanos,
}

impl Width {
    const NAMES: &'static str = "\"seconds\", \"millis\", \"micros\" or \"nanos\"";

    fn parse(text: &str) -> Option<Width> {
        match text {
            "seconds" => Some(Width::Seconds),
            "millis" => Some(Width::Millis),
            "micros" => Some(Width::Micros),
            "nanos" => Some(Width::Nanos),
            _ => None,
        }
    }

    /// The marker type's name in `dynomodel::convert::datetime`.
    pub(crate) fn marker(self) -> &'static str {
        match self {
            Width::Seconds => "Seconds",
            Width::Millis => "Millis",
            Width::Micros => "Micros",
            Width::Nanos => "Nanos",
        }
    }

    /// The option's value, for shapes and messages.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Width::Seconds => "seconds",
            Width::Millis => "millis",
            Width::Micros => "micros",
            Width::Nanos => "nanos",
        }
    }
}

/// Parses `datetime = "width"`; an unknown width is recorded and gives `None`.
pub(crate) fn width(
    meta: &ParseNestedMeta<'_>,
    errors: &mut Errors,
) -> syn::Result<Option<Spanned<Width>>> {
    let lit: LitStr = meta.value()?.parse()?;
    Ok(match Width::parse(&lit.value()) {
        Some(width) => Some(Spanned {
            value: width,
            span: lit.span(),
        }),
        None => {
            errors.at(
                lit.span(),
                format!(
                    "unknown datetime width {:?}; expected {} (the fractional digits of the seconds \
                     a DateTime<Utc> is stored with)",
                    lit.value(),
                    Width::NAMES
                ),
            );
            None
        }
    })
}
