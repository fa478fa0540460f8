//! Consumed capacity and item collection metrics between the AWS SDK for Rust (through `AwsBackend`)
//! and the server's wire layer, with a backend that records what it is asked and reports every member
//! of `ConsumedCapacity` and `ItemCollectionMetrics`: `ReturnConsumedCapacity` and
//! `ReturnItemCollectionMetrics` as the SDK sends them decode to what the request was built with, and
//! what the wire layer encodes the SDK's decoder reads back to the same typed answer.

use std::collections::BTreeMap;
use std::sync::Mutex;

use dynomodel::backend::{
    BatchGetItemInput, BatchGetItemOutput, BatchWriteItemInput, BatchWriteItemOutput, Capacity,
    ConsumedCapacity, CreateTableInput, CreateTableOutput, DeleteItemInput, DeleteItemOutput,
    DeleteTableInput, DeleteTableOutput, DescribeTableInput, DescribeTableOutput, GetItemInput,
    GetItemOutput, ItemCollectionMetrics, KeysAndAttributes, ListTablesInput, ListTablesOutput,
    PutItemInput, PutItemOutput, QueryInput, QueryOutput, ReturnConsumedCapacity,
    ReturnItemCollectionMetrics, ScanInput, ScanOutput, TransactGet, TransactGetItemsInput,
    TransactGetItemsOutput, TransactPut, TransactWriteItem, TransactWriteItemsInput,
    TransactWriteItemsOutput, UpdateItemInput, UpdateItemOutput, WriteRequest,
};
use dynomodel::{AttributeValue, AwsBackend, Error, Item};

use super::*;

/// What one request asked for, whichever operation it was.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Asked {
    consumed: Option<ReturnConsumedCapacity>,
    metrics: Option<ReturnItemCollectionMetrics>,
}

/// Records what each request asked for; answers with every member set (or with `error`).
#[derive(Debug, Default)]
struct Metered {
    error: Option<Error>,
    asked: Mutex<Vec<Asked>>,
}

impl Metered {
    fn answer<T>(
        &self,
        consumed: Option<ReturnConsumedCapacity>,
        metrics: Option<ReturnItemCollectionMetrics>,
        out: T,
    ) -> dynomodel::Result<T> {
        self.asked.lock().unwrap().push(Asked { consumed, metrics });
        match &self.error {
            Some(e) => Err(e.clone()),
            None => Ok(out),
        }
    }
}

fn elsewhere() -> Error {
    Error::validation("not part of these tests")
}

/// Every member of `ConsumedCapacity`, with units that are not whole numbers where they can be.
fn full(table: &str) -> ConsumedCapacity {
    let units = |read: f64, write: f64| Capacity {
        read_capacity_units: Some(read),
        write_capacity_units: Some(write),
        capacity_units: Some(read + write),
    };
    ConsumedCapacity {
        table_name: table.into(),
        capacity_units: Some(7.5),
        read_capacity_units: Some(1.5),
        write_capacity_units: Some(6.0),
        table: Some(units(0.5, 2.0)),
        local_secondary_indexes: BTreeMap::from([("lsi".to_owned(), units(0.5, 2.0))]),
        global_secondary_indexes: BTreeMap::from([
            ("gsi-a".to_owned(), units(0.5, 1.0)),
            ("gsi-b".to_owned(), units(0.0, 1.0)),
        ]),
    }
}

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.into())
}

fn key(pk: &str) -> Item {
    [("pk".to_owned(), s(pk))].into()
}

fn metrics(pk: &str) -> ItemCollectionMetrics {
    ItemCollectionMetrics {
        item_collection_key: [
            ("pk".to_owned(), s(pk)),
            ("n".to_owned(), AttributeValue::N("2.5".parse().unwrap())),
        ]
        .into(),
        size_estimate_range_gb: vec![0.0, 1.0],
    }
}

fn per_table() -> BTreeMap<String, Vec<ItemCollectionMetrics>> {
    BTreeMap::from([
        ("a".to_owned(), vec![metrics("x"), metrics("y")]),
        ("b".to_owned(), vec![metrics("z")]),
    ])
}

fn put_out() -> PutItemOutput {
    PutItemOutput {
        attributes: Some(key("old")),
        consumed_capacity: Some(full("t")),
        item_collection_metrics: Some(metrics("a")),
    }
}

fn get_out() -> GetItemOutput {
    GetItemOutput {
        item: Some(key("a")),
        consumed_capacity: Some(full("t")),
    }
}

fn delete_out() -> DeleteItemOutput {
    DeleteItemOutput {
        attributes: None,
        consumed_capacity: Some(full("t")),
        item_collection_metrics: Some(metrics("a")),
    }
}

fn update_out() -> UpdateItemOutput {
    UpdateItemOutput {
        attributes: Some(key("a")),
        consumed_capacity: Some(full("t")),
        item_collection_metrics: Some(metrics("a")),
    }
}

fn page_out() -> QueryOutput {
    QueryOutput {
        items: Some(vec![key("a")]),
        count: 1,
        scanned_count: 4,
        last_evaluated_key: None,
        consumed_capacity: Some(full("t")),
    }
}

fn batch_get_out() -> BatchGetItemOutput {
    BatchGetItemOutput {
        responses: BTreeMap::from([("a".to_owned(), vec![key("x")])]),
        unprocessed_keys: BTreeMap::new(),
        consumed_capacity: vec![full("a"), full("b")],
    }
}

fn batch_write_out() -> BatchWriteItemOutput {
    BatchWriteItemOutput {
        unprocessed_items: BTreeMap::new(),
        consumed_capacity: vec![full("a"), full("b")],
        item_collection_metrics: per_table(),
    }
}

fn transact_get_out() -> TransactGetItemsOutput {
    TransactGetItemsOutput {
        responses: vec![Some(key("x")), None],
        consumed_capacity: vec![full("a"), full("b")],
    }
}

fn transact_write_out() -> TransactWriteItemsOutput {
    TransactWriteItemsOutput {
        consumed_capacity: vec![full("a"), full("b")],
        item_collection_metrics: per_table(),
    }
}

#[async_trait::async_trait]
impl Backend for Metered {
    async fn create_table(&self, _: CreateTableInput) -> dynomodel::Result<CreateTableOutput> {
        Err(elsewhere())
    }
    async fn describe_table(
        &self,
        _: DescribeTableInput,
    ) -> dynomodel::Result<DescribeTableOutput> {
        Err(elsewhere())
    }
    async fn list_tables(&self, _: ListTablesInput) -> dynomodel::Result<ListTablesOutput> {
        Err(elsewhere())
    }
    async fn delete_table(&self, _: DeleteTableInput) -> dynomodel::Result<DeleteTableOutput> {
        Err(elsewhere())
    }
    async fn put_item(&self, i: PutItemInput) -> dynomodel::Result<PutItemOutput> {
        self.answer(
            i.return_consumed_capacity,
            i.return_item_collection_metrics,
            put_out(),
        )
    }
    async fn get_item(&self, i: GetItemInput) -> dynomodel::Result<GetItemOutput> {
        self.answer(i.return_consumed_capacity, None, get_out())
    }
    async fn delete_item(&self, i: DeleteItemInput) -> dynomodel::Result<DeleteItemOutput> {
        self.answer(
            i.return_consumed_capacity,
            i.return_item_collection_metrics,
            delete_out(),
        )
    }
    async fn update_item(&self, i: UpdateItemInput) -> dynomodel::Result<UpdateItemOutput> {
        self.answer(
            i.return_consumed_capacity,
            i.return_item_collection_metrics,
            update_out(),
        )
    }
    async fn query(&self, i: QueryInput) -> dynomodel::Result<QueryOutput> {
        self.answer(i.return_consumed_capacity, None, page_out())
    }
    async fn scan(&self, i: ScanInput) -> dynomodel::Result<ScanOutput> {
        self.answer(i.return_consumed_capacity, None, page_out())
    }
    async fn batch_get_item(&self, i: BatchGetItemInput) -> dynomodel::Result<BatchGetItemOutput> {
        self.answer(i.return_consumed_capacity, None, batch_get_out())
    }
    async fn batch_write_item(
        &self,
        i: BatchWriteItemInput,
    ) -> dynomodel::Result<BatchWriteItemOutput> {
        self.answer(
            i.return_consumed_capacity,
            i.return_item_collection_metrics,
            batch_write_out(),
        )
    }
    async fn transact_get_items(
        &self,
        i: TransactGetItemsInput,
    ) -> dynomodel::Result<TransactGetItemsOutput> {
        self.answer(i.return_consumed_capacity, None, transact_get_out())
    }
    async fn transact_write_items(
        &self,
        i: TransactWriteItemsInput,
    ) -> dynomodel::Result<TransactWriteItemsOutput> {
        self.answer(
            i.return_consumed_capacity,
            i.return_item_collection_metrics,
            transact_write_out(),
        )
    }
}

const INDEXES: Option<ReturnConsumedCapacity> = Some(ReturnConsumedCapacity::Indexes);
const SIZE: Option<ReturnItemCollectionMetrics> = Some(ReturnItemCollectionMetrics::Size);

#[tokio::test]
async fn every_member_round_trips_through_the_sdk() {
    let metered = Arc::new(Metered::default());
    let shared: Arc<dyn Backend> = metered.clone();
    let server = Server::bind_shared("127.0.0.1:0", shared).await.unwrap();
    let aws = AwsBackend::local(server.url());
    let write = |consumed, metrics| Asked { consumed, metrics };
    let read = |consumed| Asked {
        consumed,
        metrics: None,
    };

    let put = PutItemInput {
        table_name: "t".into(),
        item: key("a"),
        return_consumed_capacity: INDEXES,
        return_item_collection_metrics: SIZE,
        ..Default::default()
    };
    assert_eq!(aws.put_item(put).await.unwrap(), put_out());
    let get = GetItemInput {
        table_name: "t".into(),
        key: key("a"),
        return_consumed_capacity: Some(ReturnConsumedCapacity::Total),
        ..Default::default()
    };
    assert_eq!(aws.get_item(get).await.unwrap(), get_out());
    let delete = DeleteItemInput {
        table_name: "t".into(),
        key: key("a"),
        return_consumed_capacity: Some(ReturnConsumedCapacity::None),
        return_item_collection_metrics: Some(ReturnItemCollectionMetrics::None),
        ..Default::default()
    };
    assert_eq!(aws.delete_item(delete).await.unwrap(), delete_out());
    let update = UpdateItemInput {
        table_name: "t".into(),
        key: key("a"),
        update_expression: Some("REMOVE v".into()),
        return_consumed_capacity: INDEXES,
        return_item_collection_metrics: SIZE,
        ..Default::default()
    };
    assert_eq!(aws.update_item(update).await.unwrap(), update_out());
    let query = QueryInput {
        table_name: "t".into(),
        key_condition_expression: Some("pk = :p".into()),
        expression_attribute_values: Some([(":p".to_owned(), s("a"))].into()),
        return_consumed_capacity: INDEXES,
        ..Default::default()
    };
    assert_eq!(aws.query(query).await.unwrap(), page_out());
    let scan = ScanInput {
        table_name: "t".into(),
        ..Default::default()
    };
    assert_eq!(aws.scan(scan).await.unwrap(), page_out());
    let batch_get = BatchGetItemInput {
        request_items: BTreeMap::from([(
            "a".to_owned(),
            KeysAndAttributes {
                keys: vec![key("x")],
                ..Default::default()
            },
        )]),
        return_consumed_capacity: INDEXES,
    };
    assert_eq!(
        aws.batch_get_item(batch_get).await.unwrap(),
        batch_get_out()
    );
    let batch_write = BatchWriteItemInput {
        request_items: BTreeMap::from([(
            "a".to_owned(),
            vec![WriteRequest::Put { item: key("x") }],
        )]),
        return_consumed_capacity: INDEXES,
        return_item_collection_metrics: SIZE,
    };
    assert_eq!(
        aws.batch_write_item(batch_write).await.unwrap(),
        batch_write_out()
    );
    let transact_get = TransactGetItemsInput {
        transact_items: vec![TransactGet {
            table_name: "a".into(),
            key: key("x"),
            ..Default::default()
        }],
        return_consumed_capacity: INDEXES,
    };
    assert_eq!(
        aws.transact_get_items(transact_get).await.unwrap(),
        transact_get_out()
    );
    let transact_write = TransactWriteItemsInput {
        transact_items: vec![TransactWriteItem::Put(TransactPut {
            table_name: "a".into(),
            item: key("x"),
            ..Default::default()
        })],
        return_consumed_capacity: Some(ReturnConsumedCapacity::Total),
        return_item_collection_metrics: SIZE,
        ..Default::default()
    };
    assert_eq!(
        aws.transact_write_items(transact_write).await.unwrap(),
        transact_write_out()
    );
    server.shutdown().await;

    let asked = metered.asked.lock().unwrap().clone();
    assert_eq!(
        asked,
        vec![
            write(INDEXES, SIZE),
            read(Some(ReturnConsumedCapacity::Total)),
            write(
                Some(ReturnConsumedCapacity::None),
                Some(ReturnItemCollectionMetrics::None)
            ),
            write(INDEXES, SIZE),
            read(INDEXES),
            read(None),
            read(INDEXES),
            write(INDEXES, SIZE),
            read(INDEXES),
            write(Some(ReturnConsumedCapacity::Total), SIZE),
        ]
    );
}

#[tokio::test]
async fn an_item_collection_over_its_limit_reaches_the_sdk_by_name() {
    let message = "Item collection size limit exceeded";
    let metered = Arc::new(Metered {
        error: Some(Error::Service {
            code: "ItemCollectionSizeLimitExceededException".into(),
            message: message.into(),
        }),
        ..Metered::default()
    });
    let shared: Arc<dyn Backend> = metered.clone();
    let server = Server::bind_shared("127.0.0.1:0", shared).await.unwrap();
    let aws = AwsBackend::local(server.url());
    let put = PutItemInput {
        table_name: "t".into(),
        item: key("a"),
        ..Default::default()
    };
    let e = aws.put_item(put).await.unwrap_err();
    assert_eq!(e.code(), "ItemCollectionSizeLimitExceededException");
    assert_eq!(e.message(), message);
    server.shutdown().await;
}
