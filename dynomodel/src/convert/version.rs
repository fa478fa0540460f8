//! [`VersionAttribute`]: the integer types a `#[version]` field may have, and how their values read
//! as versions.

use crate::convert::Attribute;
use crate::error::ConversionError;
use crate::value::AttributeValue;

/// A type that may be a model's `#[version]` field: an integer stored as N, or an `Option` of one.
///
/// A version is a `u64` to the mapper. A value *not yet saved* is `0` (plain integers) or `None`
/// (options); the first save stores version 1 and every write after it adds 1. `Some(0)` is a stored
/// version 0, which the mapper never writes but checks like any other.
///
/// ```
/// use dynomodel::VersionAttribute;
///
/// assert_eq!(0u64.to_version()?, None); // never saved
/// assert_eq!(7i32.to_version()?, Some(7));
/// assert_eq!(None::<u32>.to_version()?, None);
/// assert_eq!(Some(0u32).to_version()?, Some(0));
/// assert_eq!(u8::from_version(Some(3))?, 3);
/// assert!(u8::from_version(Some(256)).is_err()); // does not fit: an error, never a wrap
/// assert!((-1i64).to_version().is_err());
/// # Ok::<(), dynomodel::ConversionError>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a `#[version]` field: a version is an integer",
    label = "`#[version]` needs an integer type",
    note = "use u64 (or any integer type, or an Option of one, where None means not saved yet)"
)]
pub trait VersionAttribute: Attribute {
    /// The version this value holds: `None` when the item was never saved (`0`, or `None`).
    ///
    /// Errors: a negative value, or one above `u64::MAX`.
    fn to_version(&self) -> Result<Option<u64>, ConversionError>;

    /// The value holding `version` (`None`: not saved yet).
    ///
    /// Errors: the version does not fit the type.
    fn from_version(version: Option<u64>) -> Result<Self, ConversionError>;

    /// How `version` is stored: the attribute value of [`from_version`](Self::from_version)`(Some(version))`.
    ///
    /// Errors: the version does not fit the type.
    fn version_value(version: u64) -> Result<AttributeValue, ConversionError> {
        Self::from_version(Some(version))?
            .to_attribute()?
            .ok_or_else(|| ConversionError::new("a stored version number", "nothing"))
    }
}

fn out_of_range<T: Attribute>(version: impl std::fmt::Display) -> ConversionError {
    ConversionError::new(
        format!("a version that fits {}", T::expected()),
        version.to_string(),
    )
}

macro_rules! integer_versions {
    ($($t:ty),*) => {$(
        impl VersionAttribute for $t {
            fn to_version(&self) -> Result<Option<u64>, ConversionError> {
                match u64::try_from(*self) {
                    Ok(0) => Ok(None),
                    Ok(version) => Ok(Some(version)),
                    Err(_) => Err(ConversionError::new("a version from 0 to u64::MAX", self.to_string())),
                }
            }

            fn from_version(version: Option<u64>) -> Result<Self, ConversionError> {
                let version = version.unwrap_or(0);
                <$t>::try_from(version).map_err(|_| out_of_range::<$t>(version))
            }
        }

        impl VersionAttribute for Option<$t> {
            fn to_version(&self) -> Result<Option<u64>, ConversionError> {
                self.map(|value| {
                    u64::try_from(value).map_err(|_| {
                        ConversionError::new("a version from 0 to u64::MAX", value.to_string())
                    })
                })
                .transpose()
            }

            fn from_version(version: Option<u64>) -> Result<Self, ConversionError> {
                version
                    .map(|version| <$t>::try_from(version).map_err(|_| out_of_range::<$t>(version)))
                    .transpose()
            }
        }
    )*};
}
integer_versions!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_and_none_mean_not_saved() {
        assert_eq!(0u8.to_version(), Ok(None));
        assert_eq!(u64::from_version(None), Ok(0));
        assert_eq!(Option::<i64>::from_version(None), Ok(None));
        assert_eq!(Option::<i64>::from_version(Some(0)), Ok(Some(0)));
        assert_eq!(
            u128::MAX.to_version().map_err(|e| e.found),
            Err(u128::MAX.to_string())
        );
    }

    #[test]
    fn stored_as_plain_numbers_and_range_checked() {
        assert_eq!(i64::version_value(12), Ok(AttributeValue::N(12.into())));
        assert_eq!(
            Option::<u16>::version_value(12),
            Ok(AttributeValue::N(12.into()))
        );
        let err = i8::version_value(128).expect_err("does not fit");
        assert_eq!(err.expected, "a version that fits a number (i8)");
        assert_eq!(err.found, "128");
        assert!(Option::<i8>::to_version(&Some(-1)).is_err());
    }
}
