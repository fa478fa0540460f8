//! Answers in the client's region: the ARNs and `awsRegion`s of a response name the region the
//! request was signed for ([`Context::region`](super::Context::region)).
//!
//! The model: an engine without a region of its own (the default; `serve` without `--region`) is one
//! database that answers every region. Each client sees every table, named in its own region, as if
//! the tables were its region's: a client signing for `us-east-1` reads `arn:aws:dynamodb:us-east-1:…`
//! ARNs and stream records saying `"awsRegion": "us-east-1"`, one signing for `eu-west-1` the same
//! tables under `eu-west-1` ARNs. That is the simplest model that answers each client as DynamoDB would
//! (DynamoDB names the region the request reached: `awsRegion` is "the region in which the GetRecords
//! request was received"), and the one local servers' users expect: DynamoDB Local's other model, a
//! database per access key and region, hides a table created by a test configured for one region from
//! a CLI configured for another (which is why it has `-sharedDb`). The engine stores its ARNs with its
//! own region (`ddblocal`) and accepts an ARN of any region; this module rewrites the region of the ARNs
//! it hands out. An engine whose region is pinned (`--region`) answers in that region only, and the
//! server leaves its answers as they are.

use serde_json::Value;

/// `arn` (a DynamoDB ARN) naming `region` instead of its own; `None` for another string or an ARN
/// that already names it.
pub(crate) fn present_arn(arn: &str, region: &str) -> Option<String> {
    let (own, account, resource) = crate::storage::settings::split_arn(arn)?;
    (own != region).then(|| format!("arn:aws:dynamodb:{region}:{account}:{resource}"))
}

/// Rewrites, in place, the ARN members of a table or streams operation's response: a table
/// description's (`Table` of DescribeTable, `TableDescription` of the others) `TableArn`,
/// `LatestStreamArn`, its indexes' `IndexArn` and its `RestoreSummary`'s ARNs; ListStreams'
/// `StreamArn`s and `LastEvaluatedStreamArn`; DescribeStream's `StreamArn`; the backups' ARNs
/// (`BackupDetails`, `BackupDescription`, `BackupSummaries`, `LastEvaluatedBackupArn`). Item
/// operations carry no ARN.
pub(super) fn present(response: &mut Value, region: &str) {
    let Value::Object(body) = response else {
        return;
    };
    for (member, value) in body.iter_mut() {
        match member.as_str() {
            "Table" | "TableDescription" => present_table(value, region),
            "StreamDescription" => present_member(value, "StreamArn", region),
            "Streams" => each(value, |stream| present_member(stream, "StreamArn", region)),
            "LastEvaluatedStreamArn" | "LastEvaluatedBackupArn" => present_string(value, region),
            "BackupDetails" => present_member(value, "BackupArn", region),
            "BackupDescription" => {
                if let Some(details) = value.get_mut("BackupDetails") {
                    present_member(details, "BackupArn", region);
                }
                if let Some(source) = value.get_mut("SourceTableDetails") {
                    present_member(source, "TableArn", region);
                }
            }
            "BackupSummaries" => each(value, |summary| {
                present_member(summary, "TableArn", region);
                present_member(summary, "BackupArn", region);
            }),
            _ => {}
        }
    }
}

fn present_table(table: &mut Value, region: &str) {
    present_member(table, "TableArn", region);
    present_member(table, "LatestStreamArn", region);
    if let Some(restore) = table.get_mut("RestoreSummary") {
        present_member(restore, "SourceBackupArn", region);
        present_member(restore, "SourceTableArn", region);
    }
    for indexes in ["GlobalSecondaryIndexes", "LocalSecondaryIndexes"] {
        if let Some(list) = table.get_mut(indexes) {
            each(list, |index| present_member(index, "IndexArn", region));
        }
    }
}

fn each(list: &mut Value, mut f: impl FnMut(&mut Value)) {
    if let Value::Array(elements) = list {
        elements.iter_mut().for_each(&mut f);
    }
}

fn present_member(object: &mut Value, member: &str, region: &str) {
    if let Some(value) = object.get_mut(member) {
        present_string(value, region);
    }
}

fn present_string(value: &mut Value, region: &str) {
    if let Value::String(arn) = value
        && let Some(presented) = present_arn(arn, region)
    {
        *arn = presented;
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn arns_name_the_client_s_region() {
        let arn = "arn:aws:dynamodb:ddblocal:000000000000:table/t";
        assert_eq!(
            present_arn(arn, "eu-west-1").as_deref(),
            Some("arn:aws:dynamodb:eu-west-1:000000000000:table/t")
        );
        assert_eq!(present_arn(arn, "ddblocal"), None);
        assert_eq!(present_arn("not an arn", "eu-west-1"), None);
    }

    #[test]
    fn responses_present_every_arn_they_carry() {
        let table = "arn:aws:dynamodb:ddblocal:000000000000:table/t";
        let stream = format!("{table}/stream/2026-01-01T00:00:00.000");
        let mut described = json!({"Table": {
            "TableName": "t",
            "TableArn": table,
            "LatestStreamArn": stream,
            "GlobalSecondaryIndexes": [{"IndexName": "g", "IndexArn": format!("{table}/index/g")}],
            "LocalSecondaryIndexes": [{"IndexName": "l", "IndexArn": format!("{table}/index/l")}],
        }});
        present(&mut described, "us-east-2");
        let t = &described["Table"];
        let mine = "arn:aws:dynamodb:us-east-2:000000000000:table/t";
        assert_eq!(t["TableArn"], mine);
        assert_eq!(
            t["LatestStreamArn"],
            format!("{mine}/stream/2026-01-01T00:00:00.000")
        );
        assert_eq!(
            t["GlobalSecondaryIndexes"][0]["IndexArn"],
            format!("{mine}/index/g")
        );
        assert_eq!(
            t["LocalSecondaryIndexes"][0]["IndexArn"],
            format!("{mine}/index/l")
        );
        let mut listed = json!({"Streams": [{"StreamArn": stream, "TableName": "t"}],
            "LastEvaluatedStreamArn": stream});
        present(&mut listed, "us-east-2");
        assert!(listed["Streams"][0]["StreamArn"]
            .as_str()
            .is_some_and(|a| a.starts_with(mine)));
        assert_eq!(
            listed["LastEvaluatedStreamArn"],
            listed["Streams"][0]["StreamArn"]
        );
        let mut one = json!({"StreamDescription": {"StreamArn": stream, "TableName": "t"}});
        present(&mut one, "us-east-2");
        assert_eq!(
            one["StreamDescription"]["StreamArn"],
            listed["Streams"][0]["StreamArn"]
        );
    }
}
