//! The fuzz targets' corpora (`fuzz/corpus/TARGET/`, minimised and checked in) and the inputs of past
//! findings (`fuzz/regressions/TARGET/`), replayed on stable in CI: every input runs through its
//! target as the fuzzer ran it.

use std::path::{Path, PathBuf};

use super::TARGETS;

/// The fuzz crate's directory, beside this package's.
fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

/// The files of `dir`, sorted (none if it does not exist).
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|f| f.is_file());
    files.sort();
    files
}

#[test]
fn every_corpus_input_and_past_finding_runs_clean() {
    let mut failures = Vec::new();
    for (name, target) in TARGETS {
        let corpus = inputs(&fuzz_dir().join("corpus").join(name));
        assert!(!corpus.is_empty(), "fuzz/corpus/{name} is empty or missing");
        let regressions = inputs(&fuzz_dir().join("regressions").join(name));
        for file in corpus.iter().chain(&regressions) {
            let Ok(data) = std::fs::read(file) else {
                failures.push(format!("{}: unreadable", file.display()));
                continue;
            };
            if std::panic::catch_unwind(|| target(&data)).is_err() {
                failures.push(file.display().to_string());
            }
        }
    }
    assert!(failures.is_empty(), "inputs that fail: {failures:#?}");
}

#[test]
fn the_fuzz_crate_builds_a_target_for_each() {
    let manifest = std::fs::read_to_string(fuzz_dir().join("Cargo.toml")).unwrap_or_default();
    for (name, _) in TARGETS {
        assert!(
            manifest.contains(&format!("name = \"{name}\"")),
            "fuzz/Cargo.toml has no target {name}"
        );
        let source = fuzz_dir().join("fuzz_targets").join(format!("{name}.rs"));
        assert!(source.is_file(), "{}", source.display());
    }
}

/// Writes the seed inputs (`fuzz/corpus/TARGET/seed-*`) the fuzzer starts from: requests of every
/// operation, expressions of every kind, statements, and a real data directory's log and snapshot.
/// Run by hand after the formats change: `cargo test -p dynomodel-mem --features server --lib
/// fuzzing::tests::write_seed_corpus -- --ignored`; then let `scripts/fuzz` minimise the corpus.
#[test]
#[ignore = "writes fuzz/corpus"]
fn write_seed_corpus() {
    let write = |target: &str, name: &str, bytes: &[u8]| {
        let dir = fuzz_dir().join("corpus").join(target);
        std::fs::create_dir_all(&dir).expect("corpus directory");
        std::fs::write(dir.join(format!("seed-{name}")), bytes).expect("seed");
    };
    for (i, seed) in seeds::WIRE.iter().enumerate() {
        write("wire", &format!("{i:02}"), &seeds::wire(seed.0, seed.1));
    }
    for (i, (kind, text)) in seeds::EXPRESSIONS.iter().enumerate() {
        let mut input = vec![*kind];
        input.extend_from_slice(text.as_bytes());
        write("expression", &format!("{i:02}"), &input);
    }
    for (i, statement) in seeds::STATEMENTS.iter().enumerate() {
        write("partiql", &format!("{i:02}"), statement.as_bytes());
    }
    let (log, snapshot) = seeds::data_dir_files();
    write("log_record", "log", &log);
    let payloads = |bytes: &[u8]| {
        let frames: Vec<&[u8]> = super::Frames::new(bytes).collect();
        frames.join(&[0xFF, 0xFF][..])
    };
    let (log_payloads, snapshot_payloads) = (payloads(&log), payloads(&snapshot));
    write("log_record", "payloads", &log_payloads);
    write("data_dir", "raw-log", &[&[0u8][..], &log].concat());
    write("data_dir", "log", &[&[1u8][..], &log_payloads].concat());
    write(
        "data_dir",
        "snapshot",
        &[&[2u8][..], &snapshot_payloads].concat(),
    );
    let both = [&[3u8][..], &snapshot_payloads, &[0xFF, 0xFE], &log_payloads].concat();
    write("data_dir", "both", &both);
}

/// The seeds' contents.
mod seeds {
    use dynomodel::backend::{Backend, ExecuteStatementInput};

    use crate::protocol;
    use crate::MemBackend;

    /// The `wire` target's input for `operation` with `body`.
    pub(super) fn wire(operation: &str, body: &str) -> Vec<u8> {
        let operations: Vec<&str> = protocol::OPERATIONS
            .iter()
            .chain(protocol::STREAM_OPERATIONS)
            .copied()
            .collect();
        let index = operations
            .iter()
            .position(|o| *o == operation)
            .expect("an operation");
        let mut input = vec![u8::try_from(index).expect("fewer than 256 operations")];
        input.extend_from_slice(body.as_bytes());
        input
    }

    pub(super) const WIRE: &[(&str, &str)] = &[
        ("ListTables", r#"{"Limit":10}"#),
        ("DescribeTable", r#"{"TableName":"tbl"}"#),
        (
            "CreateTable",
            r#"{"TableName":"t2","BillingMode":"PROVISIONED","ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1},"AttributeDefinitions":[{"AttributeName":"h","AttributeType":"B"},{"AttributeName":"r","AttributeType":"S"}],"KeySchema":[{"AttributeName":"h","KeyType":"HASH"},{"AttributeName":"r","KeyType":"RANGE"}],"LocalSecondaryIndexes":[{"IndexName":"lsi","KeySchema":[{"AttributeName":"h","KeyType":"HASH"},{"AttributeName":"r","KeyType":"RANGE"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}]}"#,
        ),
        (
            "PutItem",
            r##"{"TableName":"tbl","Item":{"pk":{"S":"k"},"sk":{"N":"3"},"m":{"M":{"x":{"L":[{"NULL":true}]}}}},"ConditionExpression":"attribute_not_exists(#p)","ExpressionAttributeNames":{"#p":"pk"},"ReturnValues":"ALL_OLD"}"##,
        ),
        (
            "GetItem",
            r#"{"TableName":"tbl","Key":{"pk":{"S":"k"},"sk":{"N":"1"}},"ProjectionExpression":"m.n, l[2].c, a","ConsistentRead":true}"#,
        ),
        (
            "UpdateItem",
            r#"{"TableName":"tbl","Key":{"pk":{"S":"k"},"sk":{"N":"1"}},"UpdateExpression":"SET n = n + :one, l = list_append(l, :l) REMOVE z ADD ss :ss DELETE ns :ns","ExpressionAttributeValues":{":one":{"N":"1"},":l":{"L":[{"S":"q"}]},":ss":{"SS":["w"]},":ns":{"NS":["1"]}},"ReturnValues":"UPDATED_NEW"}"#,
        ),
        (
            "UpdateItem",
            r#"{"TableName":"tbl","Key":{"pk":{"S":"k"},"sk":{"N":"1"}},"AttributeUpdates":{"n":{"Action":"ADD","Value":{"N":"2"}},"z":{"Action":"DELETE"}},"Expected":{"a":{"Exists":true,"Value":{"S":"text"}}}}"#,
        ),
        (
            "DeleteItem",
            r#"{"TableName":"tbl","Key":{"pk":{"S":"k"},"sk":{"N":"2"}},"ReturnValues":"ALL_OLD"}"#,
        ),
        (
            "Query",
            r#"{"TableName":"tbl","KeyConditionExpression":"pk = :p AND sk BETWEEN :a AND :b","FilterExpression":"contains(ss, :x) OR size(l) > :a","ExpressionAttributeValues":{":p":{"S":"k"},":a":{"N":"0"},":b":{"N":"9"},":x":{"S":"x"}},"ScanIndexForward":false,"Limit":1}"#,
        ),
        (
            "Query",
            r#"{"TableName":"tbl","IndexName":"by-g","KeyConditions":{"g":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"x"}]}},"Select":"COUNT"}"#,
        ),
        (
            "Scan",
            r#"{"TableName":"tbl","Segment":0,"TotalSegments":2,"ScanFilter":{"n":{"ComparisonOperator":"GT","AttributeValueList":[{"N":"1"}]}},"ReturnConsumedCapacity":"TOTAL"}"#,
        ),
        (
            "BatchGetItem",
            r#"{"RequestItems":{"tbl":{"Keys":[{"pk":{"S":"k"},"sk":{"N":"1"}},{"pk":{"S":"k"},"sk":{"N":"9"}}],"AttributesToGet":["a","n"]}}}"#,
        ),
        (
            "BatchWriteItem",
            r#"{"RequestItems":{"tbl":[{"PutRequest":{"Item":{"pk":{"S":"b"},"sk":{"N":"1"}}}},{"DeleteRequest":{"Key":{"pk":{"S":"k"},"sk":{"N":"2"}}}}]},"ReturnItemCollectionMetrics":"SIZE"}"#,
        ),
        (
            "TransactGetItems",
            r#"{"TransactItems":[{"Get":{"TableName":"tbl","Key":{"pk":{"S":"k"},"sk":{"N":"1"}}}}]}"#,
        ),
        (
            "TransactWriteItems",
            r#"{"ClientRequestToken":"t1","TransactItems":[{"ConditionCheck":{"TableName":"tbl","Key":{"pk":{"S":"k"},"sk":{"N":"1"}},"ConditionExpression":"n > :z","ExpressionAttributeValues":{":z":{"N":"0"}}}},{"Put":{"TableName":"tbl","Item":{"pk":{"S":"t"},"sk":{"N":"1"}}}},{"Update":{"TableName":"tbl","Key":{"pk":{"S":"k"},"sk":{"N":"2"}},"UpdateExpression":"SET a = :z","ExpressionAttributeValues":{":z":{"N":"0"}}}}]}"#,
        ),
        (
            "UpdateTable",
            r#"{"TableName":"tbl","GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"by-g"}}]}"#,
        ),
        (
            "UpdateTimeToLive",
            r#"{"TableName":"tbl","TimeToLiveSpecification":{"Enabled":true,"AttributeName":"n"}}"#,
        ),
        (
            "TagResource",
            r#"{"ResourceArn":"arn:aws:dynamodb:ddblocal:000000000000:table/tbl","Tags":[{"Key":"k","Value":"v"}]}"#,
        ),
        (
            "ExecuteStatement",
            r#"{"Statement":"SELECT a, m.n FROM tbl WHERE pk = ? AND sk > ?","Parameters":[{"S":"k"},{"N":"0"}]}"#,
        ),
        (
            "BatchExecuteStatement",
            r#"{"Statements":[{"Statement":"UPDATE tbl SET a = 'b' WHERE pk = 'k' AND sk = 1"},{"Statement":"DELETE FROM tbl WHERE pk = 'k' AND sk = 2"}]}"#,
        ),
        (
            "ExecuteTransaction",
            r#"{"TransactStatements":[{"Statement":"INSERT INTO tbl VALUE {'pk': 'i', 'sk': 1, 'l': [1, 'a', {'m': true}]}"}]}"#,
        ),
        (
            "DynamoDBStreams_20120810.ListStreams",
            r#"{"TableName":"tbl"}"#,
        ),
        ("CreateBackup", r#"{"TableName":"tbl","BackupName":"bk1"}"#),
        (
            "ListBackups",
            r#"{"TableName":"tbl","Limit":5,"BackupType":"ALL","TimeRangeLowerBound":0}"#,
        ),
        (
            "UpdateContinuousBackups",
            r#"{"TableName":"tbl","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true,"RecoveryPeriodInDays":7}}"#,
        ),
        (
            "RestoreTableToPointInTime",
            r#"{"SourceTableName":"tbl","TargetTableName":"tbl-pitr","UseLatestRestorableTime":true,"BillingModeOverride":"PAY_PER_REQUEST","GlobalSecondaryIndexOverride":[]}"#,
        ),
        ("DescribeContinuousBackups", r#"{"TableName":"tbl"}"#),
        (
            "RestoreTableFromBackup",
            r#"{"TargetTableName":"tbl-copy","BackupArn":"arn:aws:dynamodb:ddblocal:000000000000:table/tbl/backup/01735689600000-0000abcd","SSESpecificationOverride":{"Enabled":false}}"#,
        ),
        (
            "DescribeBackup",
            r#"{"BackupArn":"arn:aws:dynamodb:ddblocal:000000000000:table/tbl/backup/01735689600000-0000abcd"}"#,
        ),
        (
            "DeleteBackup",
            r#"{"BackupArn":"arn:aws:dynamodb:us-east-1:000000000000:table/tbl/backup/x"}"#,
        ),
    ];

    /// (kind, text): 0 condition, 1 filter, 2 key condition, 3 update, 4 projection.
    pub(super) const EXPRESSIONS: &[(u8, &str)] = &[
        (
            0,
            "attribute_exists(#a) AND (n BETWEEN :x AND :y OR NOT begins_with(a, :s))",
        ),
        (
            0,
            "size(l[0]) >= :n AND attribute_type(m.a, :t) AND #k IN (:a, :b, :c)",
        ),
        (1, "contains(ss, :v) OR a <> :w AND m.n.d[0] = :z"),
        (2, "pk = :p AND sk BETWEEN :lo AND :hi"),
        (2, "#p = :p AND begins_with(#s, :x)"),
        (
            3,
            "SET #a = if_not_exists(#a, :z) + :one, l[1] = :v REMOVE m.n, z ADD ss :s DELETE ns :n",
        ),
        (3, "SET l = list_append(:l, l), m.#x = :m"),
        (4, "a, m.n.d[0], l[2].c, #ss"),
    ];

    pub(super) const STATEMENTS: &[&str] = &[
        "SELECT * FROM tbl WHERE pk = 'k' AND sk >= 1",
        "SELECT a, m.n, l[1] FROM \"tbl\".\"by-g\" WHERE g = ? OR contains(a, 'x')",
        "INSERT INTO tbl VALUE {'pk': ?, 'sk': 5, 'ss': <<'a', 'b'>>, 'm': {'n': [1, 2.5e3, NULL, TRUE]}}",
        "UPDATE tbl SET n = n + 1 SET l = list_append(l, [?]) REMOVE z WHERE pk = 'k' AND sk = 1 RETURNING ALL NEW *",
        "DELETE FROM tbl WHERE pk = 'k' AND sk = 2 AND attribute_exists(a)",
        "EXISTS(SELECT * FROM tbl WHERE pk = 'k' AND sk = 1)",
    ];

    /// A data directory's log and snapshot after tables, items, a transaction's token and TTL.
    pub(super) fn data_dir_files() -> (Vec<u8>, Vec<u8>) {
        let dir = super::super::scratch_dir().expect("a scratch directory");
        let run = |backend: &MemBackend| {
            let rt = tokio::runtime::Builder::new_current_thread()
                .build()
                .expect("runtime");
            for (operation, body) in WIRE {
                let _ = rt.block_on(protocol::call(backend, operation, body.as_bytes()));
            }
            let insert = ExecuteStatementInput {
                statement: STATEMENTS[2].into(),
                parameters: Some(vec![dynomodel::AttributeValue::S("p".into())]),
                ..Default::default()
            };
            let _ = rt.block_on(backend.execute_statement(insert));
        };
        {
            let backend = MemBackend::open(&dir).expect("a data directory");
            let rt = tokio::runtime::Builder::new_current_thread()
                .build()
                .expect("runtime");
            let create = r#"{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"},{"AttributeName":"g","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"GlobalSecondaryIndexes":[{"IndexName":"by-g","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}],"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}}"#;
            let _ = rt.block_on(protocol::call(&backend, "CreateTable", create.as_bytes()));
            run(&backend);
            backend.compact().expect("a snapshot");
            run(&backend);
            backend.sync().expect("synced");
        }
        let read = |prefix: &str| {
            let mut files: Vec<_> = std::fs::read_dir(&dir)
                .expect("the directory")
                .flatten()
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with(prefix) && n.ends_with(".dyno"))
                })
                .collect();
            files.sort();
            files
                .last()
                .map(|f| std::fs::read(f).expect("a file"))
                .unwrap_or_default()
        };
        let files = (read("log-"), read("snapshot-"));
        let _ = std::fs::remove_dir_all(&dir);
        files
    }
}
