//! [`present!`]: an SDK request's optional fields set only when present.
//!
//! The SDK's fluent builders are taken and returned by value (a `Query`'s is ~1 KB) and their
//! setters are not inlined into this crate, so every setter called copies the builder in and out
//! (DHAT's copy mode: 11 copies of 976 bytes and 9 of its inner builder's 472 for a Query setting
//! 4 of its 17 fields). A field left unset is `None` already: setting only the present ones
//! builds the same request, with the copies of the few setters hand-written code calls.

/// `present!(request .set_a(value_a) .set_b(value_b) ...)`: for each `Option` value that is
/// `Some`, `request = request.set_x(Some(value))`.
macro_rules! present {
    ($request:ident $(.$setter:ident($value:expr))*) => {
        $(
            if let Some(value) = $value {
                $request = $request.$setter(Some(value));
            }
        )*
    };
}
