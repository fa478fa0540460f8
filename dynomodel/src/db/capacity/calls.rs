//! [`Calls`]: the one place where the mapper's requests reach the [`Backend`]. Each data-plane
//! request goes through here to ask for the capacity the `Db`'s meter or an enclosing
//! `.with_capacity()` wants, to run inside a `tracing` span, and to report what it consumed.
//!
//! Inherent `async fn`s awaited inside the builders' futures, not a `Backend` decorator: a decorator
//! would box one more future per request (`async_trait`), which the plain path must not pay.

use std::sync::Arc;

use tracing::field::Empty;
use tracing::{Instrument, Span};

use super::consumed::Kind;
use super::meter::Meter;
use super::scope::{strongest, Scope};
use crate::backend::*;
use crate::error::Result;

/// The backend, with the meter every response's capacity goes to and what every request asks for.
#[derive(Clone)]
pub(crate) struct Calls {
    pub(crate) backend: Arc<dyn Backend>,
    pub(crate) meter: Arc<Meter>,
    /// `ReturnConsumedCapacity` for every request (`Db::with_meter`); `None` sends nothing new.
    pub(crate) ask: ReturnConsumedCapacity,
}

impl Calls {
    pub(crate) fn new(backend: Arc<dyn Backend>) -> Calls {
        Calls {
            backend,
            meter: Arc::new(Meter::default()),
            ask: ReturnConsumedCapacity::None,
        }
    }
}

/// Comma-separated names, deduplicated in order.
fn join<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let mut out: Vec<&str> = Vec::new();
    for name in names {
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out.join(",")
}

/// What a response reported consumed, recorded by the meter, the capacity scope and the span.
/// Out of line, one copy for every operation: a request that asks for no capacity (the default)
/// gets none reported and runs none of this code.
#[inline(never)]
fn record(meter: &Meter, scope: &Scope, kind: Kind, reported: &[ConsumedCapacity], span: &Span) {
    meter.record(kind, reported);
    scope.record(kind, reported);
    let units: f64 = reported.iter().filter_map(|c| c.capacity_units).sum();
    span.record("consumed", units);
}

/// A request's error code, recorded by its span (out of line: a request rarely fails).
#[cold]
#[inline(never)]
fn failed(span: &Span, error: &crate::error::Error) {
    span.record("error", error.code());
}

/// One method per data-plane operation: `$tables` renders the span's `table` field from `input`; an
/// operation may take one more argument, passed on to the backend as `$arg` (the sink of a typed
/// read; the writer of a put, which the future owns: `[generics]` declares its type).
///
/// Each method boxes its input and returns an `async` block holding the box: an `async fn` keeps its
/// arguments in its future for as long as it lives, and the builders' futures nest this one, so a
/// request input held by value (a few hundred bytes) made the boxed future of a `db.update(..)`
/// ~1.7 KB, past the allocator's small-block caches (glibc serves such a block from its slow path,
/// consolidating its free lists first: ~6,000 instructions per request). The box is one small
/// allocation. Nothing runs before the first poll: the capacity scope is read there.
macro_rules! calls {
    ($($method:ident $([$($generics:tt)*])? ($input:ident: $In:ty
        $(, $extra:ident: $Extra:ty => $arg:expr)*) -> $Out:ty, $op:literal, $kind:expr,
        $tables:expr;)*) => {
        impl Calls {
            $(
                pub(crate) fn $method $(<$($generics)*>)? (
                    &self,
                    $input: $In,
                    $($extra: $Extra,)*
                ) -> impl std::future::Future<Output = Result<$Out>> + Send {
                    let mut $input = Box::new($input);
                    async move {
                        let scope = Scope::current();
                        let ask = strongest(self.ask, scope.ask());
                        if ask != ReturnConsumedCapacity::None {
                            let asked = $input.return_consumed_capacity.unwrap_or_default();
                            $input.return_consumed_capacity = Some(strongest(asked, ask));
                        }
                        let span = tracing::debug_span!(
                            "dynamodb",
                            operation = $op,
                            table = %$tables,
                            consumed = Empty,
                            error = Empty,
                        );
                        let sent = self.backend.$method(*$input $(, $arg)*);
                        // Entering a span nobody records does nothing, but its `Instrumented`
                        // layer is one more future to poll on every wake-up.
                        let result = if span.is_none() {
                            sent.await
                        } else {
                            sent.instrument(span.clone()).await
                        };
                        match &result {
                            Ok(output) => {
                                let reported = output.consumed_capacity.as_slice();
                                if !reported.is_empty() {
                                    record(&self.meter, &scope, $kind, reported, &span);
                                }
                            }
                            Err(e) => failed(&span, e),
                        }
                        result
                    }
                }
            )*
        }
    };
}

calls! {
    get_item(input: GetItemInput) -> GetItemOutput, "GetItem", Kind::Read, input.table_name;
    // The typed read of `db.get`: the key is what `key` writes, the item goes to `sink`.
    get_item_keyed_into[K: AttributeWriter + Send](input: GetItemInput, key: K => &key,
        sink: &mut dyn ItemSink => sink) -> GetItemOutput, "GetItem", Kind::Read, input.table_name;
    // The put of `db.put` and `db.save`: the item is what `item` writes.
    put_item_from[W: AttributeWriter + Send](input: PutItemInput, item: W => &item) -> PutItemOutput,
        "PutItem", Kind::Write, input.table_name;
    update_item(input: UpdateItemInput) -> UpdateItemOutput, "UpdateItem", Kind::Write, input.table_name;
    delete_item(input: DeleteItemInput) -> DeleteItemOutput, "DeleteItem", Kind::Write, input.table_name;
    query(input: QueryInput) -> QueryOutput, "Query", Kind::Read, input.table_name;
    scan(input: ScanInput) -> QueryOutput, "Scan", Kind::Read, input.table_name;
    // The typed reads of `db.query` and `db.scan`: the items go to `sink`; a Query's names and
    // values in their placeholders' order.
    query_numbered_into(input: QueryInput, attributes: NumberedAttributes => attributes,
        sink: &mut dyn ItemSink => sink) -> QueryOutput, "Query", Kind::Read, input.table_name;
    scan_into(input: ScanInput, sink: &mut dyn ItemSink => sink) -> QueryOutput, "Scan",
        Kind::Read, input.table_name;
    batch_get_item(input: BatchGetItemInput) -> BatchGetItemOutput, "BatchGetItem", Kind::Read,
        join(input.request_items.keys().map(String::as_str));
    batch_write_item(input: BatchWriteItemInput) -> BatchWriteItemOutput, "BatchWriteItem", Kind::Write,
        join(input.request_items.keys().map(String::as_str));
    transact_get_items(input: TransactGetItemsInput) -> TransactGetItemsOutput, "TransactGetItems", Kind::Read,
        join(input.transact_items.iter().map(|g| g.table_name.as_str()));
    transact_write_items(input: TransactWriteItemsInput) -> TransactWriteItemsOutput, "TransactWriteItems", Kind::Write,
        join(input.transact_items.iter().map(TransactWriteItem::table_name));
}

/// One method per control-plane operation the mapper sends (schema and migrations): a span, no
/// capacity (DynamoDB reports none for them). The span's `table` is the table, or the resource ARN.
macro_rules! control {
    ($($method:ident($input:ident: $In:ty) -> $Out:ty, $op:literal, $table:expr;)*) => {
        impl Calls {
            $(
                pub(crate) async fn $method(&self, $input: $In) -> Result<$Out> {
                    let span = tracing::debug_span!(
                        "dynamodb",
                        operation = $op,
                        table = %$table,
                        error = Empty,
                    );
                    let result = self.backend.$method($input).instrument(span.clone()).await;
                    if let Err(e) = &result {
                        span.record("error", e.code());
                    }
                    result
                }
            )*
        }
    };
}

control! {
    create_table(input: CreateTableInput) -> CreateTableOutput, "CreateTable", input.table_name;
    describe_table(input: DescribeTableInput) -> DescribeTableOutput, "DescribeTable", input.table_name;
    delete_table(input: DeleteTableInput) -> DeleteTableOutput, "DeleteTable", input.table_name;
    update_table(input: UpdateTableInput) -> UpdateTableOutput, "UpdateTable", input.table_name;
    update_time_to_live(input: UpdateTimeToLiveInput) -> UpdateTimeToLiveOutput, "UpdateTimeToLive",
        input.table_name;
    describe_time_to_live(input: DescribeTimeToLiveInput) -> DescribeTimeToLiveOutput,
        "DescribeTimeToLive", input.table_name;
    tag_resource(input: TagResourceInput) -> TagResourceOutput, "TagResource", input.resource_arn;
    untag_resource(input: UntagResourceInput) -> UntagResourceOutput, "UntagResource",
        input.resource_arn;
    list_tags_of_resource(input: ListTagsOfResourceInput) -> ListTagsOfResourceOutput,
        "ListTagsOfResource", input.resource_arn;
    create_backup(input: CreateBackupInput) -> CreateBackupOutput, "CreateBackup", input.table_name;
    restore_table_from_backup(input: RestoreTableFromBackupInput) -> RestoreTableFromBackupOutput,
        "RestoreTableFromBackup", input.target_table_name;
    describe_continuous_backups(input: DescribeContinuousBackupsInput)
        -> DescribeContinuousBackupsOutput, "DescribeContinuousBackups", input.table_name;
    update_continuous_backups(input: UpdateContinuousBackupsInput)
        -> UpdateContinuousBackupsOutput, "UpdateContinuousBackups", input.table_name;
    restore_table_to_point_in_time(input: RestoreTableToPointInTimeInput)
        -> RestoreTableToPointInTimeOutput, "RestoreTableToPointInTime", input.target_table_name;
}

// The Streams API `Db::changes` reads (no capacity: DynamoDB reports none for it). The span's
// `table` is the stream ARN (which holds the table's ARN), and empty for GetRecords, whose opaque
// iterator names no table. (ListStreams is not here: the mapper finds a table's stream through
// DescribeTable's `LatestStreamArn`.)
control! {
    describe_stream(input: DescribeStreamInput) -> DescribeStreamOutput, "DescribeStream",
        input.stream_arn;
    get_shard_iterator(input: GetShardIteratorInput) -> GetShardIteratorOutput, "GetShardIterator",
        input.stream_arn;
    get_records(input: GetRecordsInput) -> GetRecordsOutput, "GetRecords", "";
}
