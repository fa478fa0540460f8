//! Tags: TagResource, UntagResource, ListTagsOfResource and `Tags` on CreateTable.
//!
//! KNOWN DIFFERENCE (every scenario here): DynamoDB Local has no tagging. Its three tag operations
//! answer `UnknownOperationException` "Tagging is not currently supported in DynamoDB Local." whatever
//! the request, and CreateTable accepts any `Tags` without checking or storing them. The engine and the
//! server follow the service (messages captured on it, see `dynomodel-mem/src/ops/tags.rs`).

use dynomodel::backend::*;
use dynomodel::*;

use super::*;

const LOCAL_NO_TAGS: &str = "Tagging is not currently supported in DynamoDB Local.";

/// Asserts a tag operation's error: `code`/`message` on the engine and the server, DynamoDB Local's
/// refusal there.
fn expect_tag_error<T: std::fmt::Debug>(t: &Dual, result: Result<T>, code: &str, message: &str) {
    match t.target() {
        Target::DynamoDbLocal => {
            t.expect_error(result, "UnknownOperationException", LOCAL_NO_TAGS);
        }
        Target::Mem | Target::Server => {
            t.expect_error(result, code, message);
        }
    }
}

async fn arn_of(t: &Dual, table: &str) -> String {
    t.backend()
        .describe_table(DescribeTableInput {
            table_name: table.into(),
        })
        .await
        .unwrap()
        .table
        .table_arn
}

/// The table's tags, or `None` on DynamoDB Local (after checking its refusal).
async fn tags_of(t: &Dual, arn: &str) -> Option<Vec<Tag>> {
    let listed = t
        .backend()
        .list_tags_of_resource(ListTagsOfResourceInput {
            resource_arn: arn.into(),
            next_token: None,
        })
        .await;
    match t.target() {
        Target::DynamoDbLocal => {
            t.expect_error(listed, "UnknownOperationException", LOCAL_NO_TAGS);
            None
        }
        Target::Mem | Target::Server => {
            let out = listed.unwrap();
            assert_eq!(out.next_token, None);
            Some(out.tags)
        }
    }
}

async fn tag(t: &Dual, arn: &str, tags: Vec<Tag>) -> Result<TagResourceOutput> {
    t.backend()
        .tag_resource(TagResourceInput {
            resource_arn: arn.into(),
            tags,
        })
        .await
}

async fn untag(t: &Dual, arn: &str, keys: &[&str]) -> Result<UntagResourceOutput> {
    t.backend()
        .untag_resource(UntagResourceInput {
            resource_arn: arn.into(),
            tag_keys: keys.iter().map(|k| (*k).to_owned()).collect(),
        })
        .await
}

fn tags(pairs: &[(&str, &str)]) -> Vec<Tag> {
    pairs.iter().map(|(k, v)| Tag::new(*k, *v)).collect()
}

async fn create_tagged(t: &Dual, label: &str, with: Vec<Tag>) -> Result<String> {
    let name = t.table_name(label);
    t.backend()
        .create_table(CreateTableInput {
            table_name: name.clone(),
            attribute_definitions: vec![AttributeDefinition {
                attribute_name: "pk".into(),
                attribute_type: S,
            }],
            key_schema: vec![KeySchemaElement::hash("pk")],
            billing_mode: Some(BillingMode::PayPerRequest),
            tags: with,
            ..Default::default()
        })
        .await
        .map(|_| name)
}

dual_test!(tags_from_create_table_then_tag_and_untag, |t| {
    let table = create_tagged(&t, "tagged", tags(&[("team", "payments"), ("env", "test")]))
        .await
        .unwrap();
    let arn = arn_of(&t, &table).await;
    let Some(listed) = tags_of(&t, &arn).await else {
        // DynamoDB Local: every tag operation is refused.
        expect_tag_error(&t, tag(&t, &arn, tags(&[("a", "b")])).await, "", "");
        expect_tag_error(&t, untag(&t, &arn, &["a"]).await, "", "");
        return;
    };
    // In key order.
    assert_eq!(listed, tags(&[("env", "test"), ("team", "payments")]));
    // A present key gets the new value; letters of any script, spaces and + - = . _ : / @ are fine.
    tag(
        &t,
        &arn,
        tags(&[
            ("team", "ledger"),
            ("owner: ключ", "a+b-c=d.e_f:g/h@i"),
            ("empty", ""),
        ]),
    )
    .await
    .unwrap();
    assert_eq!(
        tags_of(&t, &arn).await.unwrap(),
        tags(&[
            ("empty", ""),
            ("env", "test"),
            ("owner: ключ", "a+b-c=d.e_f:g/h@i"),
            ("team", "ledger")
        ])
    );
    // Removing a key that is not there is fine.
    untag(&t, &arn, &["env", "not-there"]).await.unwrap();
    assert_eq!(
        tags_of(&t, &arn).await.unwrap(),
        tags(&[
            ("empty", ""),
            ("owner: ключ", "a+b-c=d.e_f:g/h@i"),
            ("team", "ledger")
        ])
    );
    untag(&t, &arn, &["empty", "owner: ключ", "team"])
        .await
        .unwrap();
    assert_eq!(tags_of(&t, &arn).await.unwrap(), vec![]);
});

dual_test!(tag_requests_are_validated_before_anything_changes, |t| {
    let table = create_tagged(&t, "tagval", vec![]).await.unwrap();
    let arn = arn_of(&t, &table).await;
    let vd = "ValidationException";
    let long_key = "k".repeat(129);
    let cases: Vec<(Vec<Tag>, String)> = vec![
        (
            vec![],
            "Atleast one Tag needs to be provided as Input.".into(),
        ),
        (
            tags(&[("ok", "1"), (long_key.as_str(), "v")]),
            format!("The Tag Key provided is invalid, Key: {long_key}"),
        ),
        (
            tags(&[("", "v")]),
            "The Tag Key provided is invalid, Key: ".into(),
        ),
        (
            tags(&[("k", &"v".repeat(257))]),
            format!(
                "The Tag Value provided is invalid, Value: {}",
                "v".repeat(257)
            ),
        ),
        (
            tags(&[("a|b", "v")]),
            "The Tag Key provided is invalid, Key: a|b".into(),
        ),
        (
            tags(&[("k", "100%")]),
            "The Tag Value provided is invalid, Value: 100%".into(),
        ),
        (
            tags(&[("ok", "1"), ("aws:zzz", "v")]),
            "Tag Key cannot be prefixed with aws:, Key: aws:zzz".into(),
        ),
        (
            tags(&[("dup", "1"), ("dup", "2")]),
            "Duplicate Tag Keys provided as input: Duplicate Tag Key found dup".into(),
        ),
    ];
    for (request, message) in cases {
        expect_tag_error(&t, tag(&t, &arn, request).await, vd, &message);
    }
    expect_tag_error(
        &t,
        untag(&t, &arn, &[]).await,
        vd,
        "Atleast one Tag Key needs to be provided as Input.",
    );
    expect_tag_error(
        &t,
        untag(&t, &arn, &[&long_key]).await,
        vd,
        &format!("The Tag Key provided is invalid, Key: {long_key}"),
    );
    // Nothing was applied, not even the valid tags of the refused requests.
    if let Some(listed) = tags_of(&t, &arn).await {
        assert_eq!(listed, vec![]);
    }

    // At most 50 tags per table, counting those already there (keys tagged again count once).
    let numbered = |range: std::ops::Range<u32>| -> Vec<Tag> {
        range.map(|i| Tag::new(i.to_string(), "v")).collect()
    };
    let too_many = "Number of Tags exceed the current limit for the provided ResourceArn";
    let first = tag(&t, &arn, numbered(0..30)).await;
    let second = tag(&t, &arn, numbered(20..50)).await;
    if t.target() != Target::DynamoDbLocal {
        first.unwrap();
        second.unwrap();
        assert_eq!(tags_of(&t, &arn).await.unwrap().len(), 50);
    }
    expect_tag_error(&t, tag(&t, &arn, numbered(49..51)).await, vd, too_many);
    let fifty_one: Vec<String> = (0..51).map(|i| i.to_string()).collect();
    let fifty_one: Vec<&str> = fifty_one.iter().map(String::as_str).collect();
    expect_tag_error(&t, untag(&t, &arn, &fifty_one).await, vd, too_many);
});

dual_test!(tag_requests_name_tables_by_arn, |t| {
    let table = create_tagged(&t, "tagarn", vec![]).await.unwrap();
    let arn = arn_of(&t, &table).await;
    let missing = format!("{arn}-missing");
    let not_found = format!("Requested resource not found: ResourcArn: {missing} not found");
    let rnf = "ResourceNotFoundException";
    expect_tag_error(
        &t,
        tag(&t, &missing, tags(&[("a", "b")])).await,
        rnf,
        &not_found,
    );
    // UntagResource's text does not name the ARN (dynalite's recording).
    expect_tag_error(
        &t,
        untag(&t, &missing, &["a"]).await,
        rnf,
        "Requested resource not found",
    );
    let listed = t
        .backend()
        .list_tags_of_resource(ListTagsOfResourceInput {
            resource_arn: missing.clone(),
            next_token: None,
        })
        .await;
    expect_tag_error(&t, listed, rnf, &not_found);
    // The tag list is checked before the table is looked up.
    expect_tag_error(
        &t,
        tag(&t, &missing, vec![]).await,
        "ValidationException",
        "Atleast one Tag needs to be provided as Input.",
    );
    // Not a table ARN, or a table name no table can have.
    let short = arn.replace(&format!("table/{table}"), "table/ab");
    for bad in ["a:b:c:d:e:f/g", short.as_str(), table.as_str()] {
        expect_tag_error(
            &t,
            tag(&t, bad, tags(&[("a", "b")])).await,
            "ValidationException",
            &format!("Invalid TableArn: Invalid ResourceArn provided as input {bad}"),
        );
    }
});

dual_test!(
    tag_requests_on_another_account_s_table_are_access_denied,
    |t| {
        // The service's IAM refusal: the caller is the server's own account (the engine's,
        // `000000000000` by default, as DynamoDB Local's); a table ARN of another account is not its to
        // tag or read, whatever the region. The account's root user stands for the caller: the engine
        // knows no IAM users.
        let table = create_tagged(&t, "tagacct", vec![]).await.unwrap();
        let arn = arn_of(&t, &table).await;
        let theirs = arn.replace(":000000000000:", ":111122223333:");
        assert_ne!(theirs, arn);
        let denied = |operation: &str| {
            format!(
                "User: arn:aws:iam::000000000000:root is not authorized to perform: \
             dynamodb:{operation} on resource: {theirs} because no resource-based policy allows \
             the dynamodb:{operation} action"
            )
        };
        let code = "AccessDeniedException";
        expect_tag_error(
            &t,
            tag(&t, &theirs, tags(&[("a", "b")])).await,
            code,
            &denied("TagResource"),
        );
        expect_tag_error(
            &t,
            untag(&t, &theirs, &["a"]).await,
            code,
            &denied("UntagResource"),
        );
        let listed = t
            .backend()
            .list_tags_of_resource(ListTagsOfResourceInput {
                resource_arn: theirs.clone(),
                next_token: None,
            })
            .await;
        expect_tag_error(&t, listed, code, &denied("ListTagsOfResource"));
    }
);

dual_test!(create_table_checks_its_tags, |t| {
    let too_many: Vec<Tag> = (0..51).map(|i| Tag::new(i.to_string(), "v")).collect();
    for (with, message) in [
        (
            too_many,
            "Number of Tags exceed the current limit for the provided ResourceArn",
        ),
        (
            tags(&[("aws:x", "v")]),
            "Tag Key cannot be prefixed with aws:, Key: aws:x",
        ),
        (
            tags(&[("a|b", "v")]),
            "The Tag Key provided is invalid, Key: a|b",
        ),
    ] {
        let created = create_tagged(&t, "badtags", with).await;
        match t.target() {
            // KNOWN DIFFERENCE: DynamoDB Local accepts and ignores any Tags.
            Target::DynamoDbLocal => {
                created.unwrap();
            }
            Target::Mem | Target::Server => {
                t.expect_error(created, "ValidationException", message);
            }
        }
    }
    // Exactly 50 are fine, and visible at once.
    let fifty: Vec<Tag> = (10..60).map(|i| Tag::new(i.to_string(), "v")).collect();
    let table = create_tagged(&t, "fifty", fifty.clone()).await.unwrap();
    let arn = arn_of(&t, &table).await;
    if let Some(listed) = tags_of(&t, &arn).await {
        assert_eq!(listed, fifty);
    }
});
