//! Number strings that `Number` cannot represent, sent raw through the SDK to DynamoDB Local and compared
//! with `NumberError`'s messages (which are what the engine reports, since it parses with `Number`).

use aws_sdk_dynamodb::types::AttributeValue as SdkValue;
use dynomodel::backend::*;
use dynomodel::*;

use super::*;

/// (input, NumberError's message = what the engine says, DynamoDB Local's message).
fn cases() -> Vec<(&'static str, String, &'static str)> {
    let not_a_number = "A value provided cannot be converted into a number";
    vec![
        // KNOWN DIFFERENCE: DynamoDB Local's precision message lacks "significant" (the developer
        // guide's `HowItWorks.NamingRulesDataTypes.html`: "38 digits of precision").
        (
            "123456789012345678901234567890123456789",
            NumberError::TooManyDigits.to_string(),
            "DynamoDB only supports precision up to 38 digits",
        ),
        (
            "1E126",
            NumberError::Overflow.to_string(),
            "Number overflow. Attempting to store a number with magnitude larger than supported range",
        ),
        (
            "1E-131",
            NumberError::Underflow.to_string(),
            "Number underflow. Attempting to store a number with magnitude smaller than supported range",
        ),
        // KNOWN DIFFERENCE: unparseable text. NumberError says "The parameter cannot be converted to a
        // numeric value: <text>"; DynamoDB Local says "A value provided cannot be converted into a number".
        ("NaN", NumberError::Invalid("NaN".into()).to_string(), not_a_number),
        ("Infinity", NumberError::Invalid("Infinity".into()).to_string(), not_a_number),
        (" 1", NumberError::Invalid(" 1".into()).to_string(), not_a_number),
        ("0x10", NumberError::Invalid("0x10".into()).to_string(), not_a_number),
    ]
}

dual_test!(invalid_number_strings_are_validation_errors, |t| {
    let table = t.create_table("badnum", ("pk", S), None).await;
    for (text, engine, local) in cases() {
        match t.aws() {
            // The engine never sees such a string through dynomodel's types: parsing fails first, and
            // `From<NumberError> for Error` makes it the ValidationException the engine reports.
            None => {
                let e = Error::from(Number::parse(text).unwrap_err());
                assert_eq!((e.code(), e.message()), ("ValidationException", engine));
            }
            Some(aws) => {
                let r = aws
                    .client()
                    .put_item()
                    .table_name(&table)
                    .item("pk", SdkValue::S("a".into()))
                    .item("n", SdkValue::N(text.into()))
                    .send()
                    .await;
                let e = aws_sdk_dynamodb::error::ProvideErrorMetadata::meta(&r.expect_err(text))
                    .clone();
                assert_eq!(
                    (e.code(), e.message()),
                    (Some("ValidationException"), Some(local)),
                    "N {text:?}"
                );
            }
        }
    }
});

dual_test!(zero_is_judged_by_its_written_exponent, |t| {
    use super::validation::{expect, send};
    use serde_json::json;

    // The dynamodb-conformance suite's captures of the live service, October 2026):
    // zero is range-checked by the exponent it is written with.
    let table = t.create_table("zeroexp", ("pk", S), None).await;
    let put = |n: &str| json!({"TableName": table, "Item": {"pk": {"S": "z"}, "n": {"N": n}}});
    // KNOWN DIFFERENCE: DynamoDB Local accepts zero with any exponent.
    for (text, message) in [
        ("0E+126", NumberError::Overflow.to_string()),
        ("0E-131", NumberError::Underflow.to_string()),
        ("0.0E-130", NumberError::Underflow.to_string()),
    ] {
        expect(&t, send(&t, "PutItem", put(text)).await, &message, None);
    }
    assert_eq!(send(&t, "PutItem", put("0E+125")).await, None);
    let got = t
        .backend()
        .get_item(GetItemInput {
            table_name: table.clone(),
            key: Item::from([("pk".to_owned(), AttributeValue::S("z".into()))]),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(
        got.item.and_then(|i| i.get("n").cloned()),
        Some(AttributeValue::N(Number::ZERO)),
        "[{:?}]",
        t.target()
    );
});
