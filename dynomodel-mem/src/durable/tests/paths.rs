//! Every write path reaches the log: the writes are captured where every change passes (the
//! table's puts and deletes, the token store, the catalog's write path), so each kind of request
//! comes back after a kill and after a power cut exactly as it was.

use std::time::Duration;

use dynomodel::backend::{
    AttributeDefinition, Backend, BatchExecuteStatementInput, BatchStatementRequest, BillingMode,
    CreateTableInput, DeleteTableInput, ExecuteStatementInput, ExecuteTransactionInput,
    GlobalSecondaryIndex, GlobalSecondaryIndexUpdate, KeySchemaElement, ParameterizedStatement,
    Projection, ProjectionType, ScalarAttributeType, StreamSpecification, StreamViewType,
    TimeToLiveSpecification, UntagResourceInput, UpdateTableInput, UpdateTimeToLiveInput,
};
use futures::executor::block_on;

use super::super::sim::Sim;
use super::{create, s, sim_open, view, writes};
use crate::ManualClock;

fn statement(text: &str) -> ExecuteStatementInput {
    ExecuteStatementInput {
        statement: text.into(),
        ..Default::default()
    }
}

#[test]
fn every_kind_of_write_comes_back_after_a_kill_and_a_power_cut() {
    let clock = ManualClock::default();
    let sim = Sim::new();
    let b = sim_open(&sim, &clock);
    let before = block_on(async {
        create(&b).await;
        // Items: put, update, delete, batch, transaction with a token, TTL expiry; tags.
        writes(&b, &clock, 1).await;
        // PartiQL: each statement kind, a batch, a transaction.
        b.execute_statement(statement("INSERT INTO tab VALUE {'pk': 'q1', 'g': 'g1'}"))
            .await
            .expect("insert");
        b.execute_statement(statement("UPDATE tab SET h = 'x' WHERE pk = 'q1'"))
            .await
            .expect("update");
        b.execute_statement(statement("DELETE FROM tab WHERE pk = '1-0'"))
            .await
            .expect("delete");
        b.batch_execute_statement(BatchExecuteStatementInput {
            statements: vec![BatchStatementRequest {
                statement: "INSERT INTO tab VALUE {'pk': 'q2'}".into(),
                ..Default::default()
            }],
            ..Default::default()
        })
        .await
        .expect("batch statement");
        b.execute_transaction(ExecuteTransactionInput {
            transact_statements: vec![ParameterizedStatement {
                statement: "INSERT INTO tab VALUE {'pk': 'q3', 'g': 'g1'}".into(),
                parameters: None,
                return_values_on_condition_check_failure: None,
            }],
            client_request_token: Some("partiql-token".into()),
            ..Default::default()
        })
        .await
        .expect("transaction statement");
        // Table operations: an index added (backfilled), the stream turned off, TTL off, a tag
        // removed, another table created and deleted.
        b.update_table(UpdateTableInput {
            table_name: "tab".into(),
            attribute_definitions: vec![AttributeDefinition {
                attribute_name: "h".into(),
                attribute_type: ScalarAttributeType::S,
            }],
            global_secondary_index_updates: vec![GlobalSecondaryIndexUpdate::Create(
                GlobalSecondaryIndex {
                    index_name: "by-h".into(),
                    key_schema: vec![KeySchemaElement::hash("h")],
                    projection: Projection {
                        projection_type: ProjectionType::KeysOnly,
                        non_key_attributes: vec![],
                    },
                    provisioned_throughput: None,
                },
            )],
            ..Default::default()
        })
        .await
        .expect("add an index");
        clock.advance(Duration::from_secs(1));
        b.update_table(UpdateTableInput {
            table_name: "tab".into(),
            stream_specification: Some(StreamSpecification {
                stream_enabled: false,
                stream_view_type: None,
            }),
            ..Default::default()
        })
        .await
        .expect("stream off");
        // TTL changes at most once an hour.
        clock.advance(Duration::from_secs(3601));
        b.update_time_to_live(UpdateTimeToLiveInput {
            table_name: "tab".into(),
            time_to_live_specification: TimeToLiveSpecification {
                enabled: false,
                attribute_name: "exp".into(),
            },
        })
        .await
        .expect("ttl off");
        b.untag_resource(UntagResourceInput {
            resource_arn: "arn:aws:dynamodb:ddblocal:000000000000:table/tab".into(),
            tag_keys: vec!["team".into()],
        })
        .await
        .expect("untag");
        b.create_table(CreateTableInput {
            table_name: "gone".into(),
            attribute_definitions: vec![AttributeDefinition {
                attribute_name: "id".into(),
                attribute_type: ScalarAttributeType::S,
            }],
            key_schema: vec![KeySchemaElement::hash("id")],
            billing_mode: Some(BillingMode::PayPerRequest),
            stream_specification: Some(StreamSpecification::enabled(StreamViewType::KeysOnly)),
            ..Default::default()
        })
        .await
        .expect("create another");
        b.delete_table(DeleteTableInput {
            table_name: "gone".into(),
        })
        .await
        .expect("delete it");
        clock.advance(Duration::from_secs(1));
        view(&b, true).await + &format!("{:?}", b.list_tables(Default::default()).await)
    });
    assert!(before.contains("by-h"), "{before}");
    assert!(before.contains(&format!("{:?}", s("q3"))), "{before}");
    drop(b);
    for image in [sim.after_kill(), sim.after_power_cut()] {
        let b = sim_open(&image, &clock);
        let after = block_on(async {
            view(&b, true).await + &format!("{:?}", b.list_tables(Default::default()).await)
        });
        assert_eq!(after, before);
        assert!(b.consistency_problems().is_empty());
    }
}
