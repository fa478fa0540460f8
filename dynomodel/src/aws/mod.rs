//! [`AwsBackend`]: the [`Backend`] for Amazon DynamoDB (and DynamoDB-compatible servers such as DynamoDB
//! Local, ScyllaDB Alternator or LocalStack) over `aws-sdk-dynamodb`. Feature `aws`.
//!
//! The DynamoDB Streams API (`ListStreams`, `DescribeStream`, `GetShardIterator`, `GetRecords`) goes
//! through a second client, `aws-sdk-dynamodbstreams`, because DynamoDB serves it on its own endpoint.
//!
//! Every request and response is converted field by field and without loss: numbers travel as DynamoDB's
//! exact decimal text, binaries as bytes, sets as the sequences the caller built (duplicates included, so
//! DynamoDB itself rejects them), documents recursively. Errors keep DynamoDB's code and message verbatim
//! (see [`Error`](crate::Error)).
//!
//! The typed reads of Query and Scan pages (`db.query::<M>(..)`, `db.scan::<M>()`: every page a sink
//! decodes into models) read the page's `Items` straight from the response body into the values the
//! model decodes, and hand the SDK's own deserializer the same response with an empty `Items` for
//! everything else (counts, `LastEvaluatedKey`, consumed capacity, errors, the request id, retries),
//! so they skip the SDK's map per item (about half of a Query's client CPU); the typed GetItem
//! (`db.get::<M>(..)`) reads its `Item` alike. Any body that reader does not read exactly as the SDK
//! would, any error response, and the untyped `query`/`scan`/`get_item` go through the SDK's
//! deserializer as they always did. The other way, the mapper's PutItem (`db.put(..)`) writes its
//! item as the request's JSON, which goes into the body the SDK serialized with an empty map in its
//! place, skipping the SDK's map and its serialization. The hook is an interceptor on a copy of
//! the client rebuilt from its own configuration, through which every request of the backend goes
//! (one connection pool and one credentials cache for all of them); it does nothing for the
//! others.

#[macro_use]
mod present;

mod backup;
mod batch;
#[cfg(test)]
mod canned;
mod capacity;
mod convert;
mod error;
mod item;
mod item_json;
mod legacy;
mod page_body;
mod page_hook;
mod partiql;
mod query;
mod request_body;
mod schema;
mod sent;
mod streams;
mod streams_client;
mod table;
mod transact;
mod value;

use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};
use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodbstreams::Client as StreamsClient;

use self::error::map_sdk_error;
use self::sent::BackendFuture;
use self::table::{
    attribute_definition, billing_mode, global_index, key_schema, list, local_index, optional,
    required_description, stream_specification, table_class, tag, throughput,
};
use crate::backend::*;
use crate::db::Db;
use crate::error::Result;

/// The [`Backend`] that sends every request to DynamoDB through an `aws-sdk-dynamodb` [`Client`], and the
/// DynamoDB Streams API through an `aws-sdk-dynamodbstreams` client.
///
/// ```no_run
/// # async fn demo() -> dynomodel::Result<()> {
/// use dynomodel::{AwsBackend, Db};
/// // Production: credentials, region and endpoint from the usual AWS configuration.
/// let db = Db::from_env().await?;
/// // Tests: DynamoDB Local (or any compatible server) with dummy credentials.
/// let local = Db::new(AwsBackend::local("http://127.0.0.1:8000"));
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct AwsBackend {
    /// The client as the application gave it ([`AwsBackend::client`]).
    client: Client,
    /// The client every request goes through: `client` with the typed reads' and puts'
    /// interceptor (`page_hook`), or `client` itself ([`AwsBackend::with_sdk_item_maps`]). One
    /// client for all of them: a configuration that names no HTTP client or identity cache gets a
    /// default of each per client built from it, so two clients would keep two connection pools
    /// and resolve the credentials twice.
    sender: Client,
    /// Whether `sender` is hooked (not [`AwsBackend::with_sdk_item_maps`]): the mapper's puts
    /// then write their item as JSON into the request's body.
    hooked: bool,
    streams: StreamsClient,
}

impl AwsBackend {
    /// A backend over an already configured client; the DynamoDB Streams client is derived from it.
    /// Its requests go through a copy of `client` rebuilt from its configuration with one
    /// interceptor added, the one that reads the typed reads' items from the response body and
    /// writes a put's item into the request's body (module docs); it does nothing for the other
    /// requests. [`AwsBackend::client`] is `client` itself. Where `client`'s configuration names
    /// no HTTP client or identity cache, the SDK builds a default of each for every client made
    /// from it, so the copy has its own connections and credentials cache, which all the
    /// backend's requests share.
    ///
    /// The streams client copies what the SDK lets a program read back from the DynamoDB client's
    /// config: region, HTTP client, sleep and time source, timeouts, retry configuration, identity
    /// cache, and the endpoint URL when one was set explicitly (DynamoDB-compatible servers serve both
    /// APIs on one endpoint; real AWS resolves `streams.dynamodb.<region>.amazonaws.com` itself).
    /// The SDK does not expose a client's credentials provider, so the streams client takes its
    /// credentials from the default chain (environment, profile, SSO, container or instance metadata);
    /// a client built with other credentials should come with its own streams client through
    /// [`AwsBackend::with_streams_client`].
    ///
    /// ```no_run
    /// # async fn demo() {
    /// use dynomodel::AwsBackend;
    /// let shared = aws_config::load_from_env().await;
    /// let backend = AwsBackend::new(aws_sdk_dynamodb::Client::new(&shared));
    /// # let _ = backend;
    /// # }
    /// ```
    pub fn new(client: Client) -> AwsBackend {
        let streams = streams_client::derive(client.config());
        AwsBackend::with_streams_client(client, streams)
    }

    /// A backend over two already configured clients: DynamoDB's and DynamoDB Streams'. The
    /// backend's requests go through a copy of the DynamoDB client, as [`AwsBackend::new`] says.
    ///
    /// ```no_run
    /// # async fn demo() {
    /// use dynomodel::{AwsBackend, Db};
    /// let shared = aws_config::load_from_env().await;
    /// let db = Db::new(AwsBackend::with_streams_client(
    ///     aws_sdk_dynamodb::Client::new(&shared),
    ///     aws_sdk_dynamodbstreams::Client::new(&shared),
    /// ));
    /// # let _ = db;
    /// # }
    /// ```
    pub fn with_streams_client(client: Client, streams: StreamsClient) -> AwsBackend {
        AwsBackend {
            sender: page_hook::hooked(&client),
            client,
            hooked: true,
            streams,
        }
    }

    /// This backend with every request's items in the SDK's own maps: for an application whose
    /// interceptors on the client read the items of requests or responses.
    ///
    /// Otherwise the typed reads (`db.query::<M>`, `db.scan::<M>`, `db.get::<M>`) read their items
    /// from the response body and give the SDK's deserializer an empty `Items` (or `Item`), and
    /// the mapper's puts write their item as the request's JSON and give the SDK's serializer an
    /// empty map in its place, which goes into the serialized request before the retry loop: an
    /// interceptor sees the output's items empty, and a put's input item, and its request body
    /// until `modify_before_retry_loop`, empty (the request from `modify_before_signing` on, and
    /// the response, are whole). The SDK's maps cost about half a Query's client CPU
    /// (docs/performance.md, "The mapper on the AWS path").
    ///
    /// ```
    /// use dynomodel::AwsBackend;
    /// let backend = AwsBackend::local("http://127.0.0.1:8000").with_sdk_item_maps();
    /// # let _ = backend;
    /// ```
    pub fn with_sdk_item_maps(self) -> AwsBackend {
        AwsBackend {
            sender: self.client.clone(),
            hooked: false,
            ..self
        }
    }

    /// A backend for a local DynamoDB-compatible server at `endpoint_url` (e.g. `http://127.0.0.1:8000`),
    /// with static dummy credentials and region `us-east-1`; the Streams API goes to the same endpoint.
    ///
    /// DynamoDB Local keeps a separate database per access key and region (unless started with
    /// `-sharedDb`); the fixed credentials and region make every `local` backend see the same tables.
    ///
    /// ```no_run
    /// use dynomodel::{AwsBackend, Db};
    /// let db = Db::new(AwsBackend::local("http://127.0.0.1:8000"));
    /// # let _ = db;
    /// ```
    pub fn local(endpoint_url: impl Into<String>) -> AwsBackend {
        let endpoint_url = endpoint_url.into();
        let credentials = Credentials::new("dynomodel", "dynomodel", None, None, "dynomodel-local");
        let region = Region::new("us-east-1");
        let config = aws_sdk_dynamodb::Config::builder()
            .behavior_version(BehaviorVersion::latest())
            .region(region.clone())
            .credentials_provider(credentials.clone())
            .endpoint_url(endpoint_url.clone())
            .build();
        AwsBackend::with_streams_client(
            Client::from_conf(config),
            streams_client::local(credentials, region, endpoint_url),
        )
    }

    /// The SDK client the backend was made with, for operations dynomodel does not wrap (the
    /// backend's own requests go through a copy of it: [`AwsBackend::new`]).
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The underlying DynamoDB Streams SDK client.
    pub fn streams_client(&self) -> &StreamsClient {
        &self.streams
    }
}

impl Db {
    /// A database on Amazon DynamoDB through an already configured SDK client (the DynamoDB Streams
    /// client is derived from it as [`AwsBackend::new`] describes).
    #[inline]
    pub fn aws(client: Client) -> Db {
        Db::new(AwsBackend::new(client))
    }

    /// A database on Amazon DynamoDB configured the usual AWS way: credentials, region and profile from
    /// the environment, `~/.aws/config` and `~/.aws/credentials`, instance or container metadata.
    ///
    /// The endpoint can be overridden with `AWS_ENDPOINT_URL_DYNAMODB` (or `AWS_ENDPOINT_URL` for every
    /// service), or `endpoint_url` in the profile — the SDK honours these natively — which points the
    /// same code at DynamoDB Local, ScyllaDB Alternator or LocalStack. The DynamoDB Streams client is
    /// built from the same configuration; it honours `AWS_ENDPOINT_URL_DYNAMODB_STREAMS`, and otherwise
    /// follows an explicit DynamoDB endpoint (compatible servers serve both APIs on one endpoint).
    ///
    /// It returns a `Result` so that configuration checks can be added without an API change; today
    /// loading never fails (missing credentials surface on the first request, as [`Error::Transport`](crate::Error::Transport)).
    pub async fn from_env() -> Result<Db> {
        let config = aws_config::load_defaults(BehaviorVersion::latest()).await;
        let client = Client::new(&config);
        let streams = streams_client::from_shared(&config, client.config());
        Ok(Db::new(AwsBackend::with_streams_client(client, streams)))
    }
}

#[async_trait::async_trait]
impl Backend for AwsBackend {
    async fn create_table(&self, input: CreateTableInput) -> Result<CreateTableOutput> {
        let output = self
            .sender
            .create_table()
            .table_name(input.table_name)
            .set_attribute_definitions(Some(
                list(&input.attribute_definitions, attribute_definition)?.unwrap_or_default(),
            ))
            .set_key_schema(Some(key_schema(&input.key_schema)?))
            .set_billing_mode(input.billing_mode.map(billing_mode))
            .set_provisioned_throughput(optional(&input.provisioned_throughput, throughput)?)
            .set_local_secondary_indexes(list(&input.local_secondary_indexes, local_index)?)
            .set_global_secondary_indexes(list(&input.global_secondary_indexes, global_index)?)
            .set_stream_specification(optional(&input.stream_specification, stream_specification)?)
            .set_table_class(input.table_class.map(table_class))
            .set_deletion_protection_enabled(input.deletion_protection_enabled)
            .set_tags(list(&input.tags, tag)?)
            .send()
            .await
            .map_err(map_sdk_error)?;
        Ok(CreateTableOutput {
            table_description: required_description(output.table_description)?,
        })
    }

    async fn describe_table(&self, input: DescribeTableInput) -> Result<DescribeTableOutput> {
        let output = self
            .sender
            .describe_table()
            .table_name(input.table_name)
            .send()
            .await
            .map_err(map_sdk_error)?;
        Ok(DescribeTableOutput {
            table: required_description(output.table)?,
        })
    }

    async fn list_tables(&self, input: ListTablesInput) -> Result<ListTablesOutput> {
        let output = self
            .sender
            .list_tables()
            .set_exclusive_start_table_name(input.exclusive_start_table_name)
            .set_limit(input.limit)
            .send()
            .await
            .map_err(map_sdk_error)?;
        Ok(ListTablesOutput {
            table_names: output.table_names.unwrap_or_default(),
            last_evaluated_table_name: output.last_evaluated_table_name,
        })
    }

    async fn delete_table(&self, input: DeleteTableInput) -> Result<DeleteTableOutput> {
        let output = self
            .sender
            .delete_table()
            .table_name(input.table_name)
            .send()
            .await
            .map_err(map_sdk_error)?;
        Ok(DeleteTableOutput {
            table_description: required_description(output.table_description)?,
        })
    }

    // The item, query and scan methods are written out as `#[async_trait]` expands them, so that
    // their one box holds the SDK's future rather than an `async` block holding it (see `sent`).
    // The get, put and query ones, and the helpers they call per request, are `#[inline]`: compiled
    // in the crate that makes the `Arc<dyn Backend>` (`Db::new` is generic; `Db::aws` inline), beside
    // the application's code rather than in dynomodel's units (docs/performance.md, issue 28).

    #[inline]
    fn put_item<'life0, 'async_trait>(
        &'life0 self,
        input: PutItemInput,
    ) -> BackendFuture<'async_trait, PutItemOutput>
    where
        'life0: 'async_trait,
        Self: 'async_trait,
    {
        item::put_item(&self.sender, input, None, false)
    }

    /// The attributes written straight into the request's JSON body, without building an `Item`
    /// or the SDK's item map (`request_body`).
    #[inline]
    fn put_item_from<'life0, 'life1, 'async_trait>(
        &'life0 self,
        input: PutItemInput,
        item: &'life1 dyn AttributeWriter,
    ) -> BackendFuture<'async_trait, PutItemOutput>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        item::put_item(&self.sender, input, Some(item), self.hooked)
    }

    #[inline]
    fn get_item<'life0, 'async_trait>(
        &'life0 self,
        input: GetItemInput,
    ) -> BackendFuture<'async_trait, GetItemOutput>
    where
        'life0: 'async_trait,
        Self: 'async_trait,
    {
        item::get_item(&self.sender, input, None, None)
    }

    /// The item read from the response body (or, left to the SDK, converted attribute by attribute
    /// from its map), without building an `Item`.
    #[inline]
    fn get_item_into<'life0, 'life1, 'async_trait>(
        &'life0 self,
        input: GetItemInput,
        sink: &'life1 mut dyn ItemSink,
    ) -> BackendFuture<'async_trait, GetItemOutput>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        item::get_item(&self.sender, input, None, Some(sink))
    }

    /// The key written straight into the SDK's map, without building an `Item`.
    #[inline]
    fn get_item_keyed_into<'life0, 'life1, 'async_trait>(
        &'life0 self,
        input: GetItemInput,
        key: &dyn AttributeWriter,
        sink: &'life1 mut dyn ItemSink,
    ) -> BackendFuture<'async_trait, GetItemOutput>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        item::get_item(&self.sender, input, Some(key), Some(sink))
    }

    fn delete_item<'life0, 'async_trait>(
        &'life0 self,
        input: DeleteItemInput,
    ) -> BackendFuture<'async_trait, DeleteItemOutput>
    where
        'life0: 'async_trait,
        Self: 'async_trait,
    {
        item::delete_item(&self.sender, input)
    }

    fn update_item<'life0, 'async_trait>(
        &'life0 self,
        input: UpdateItemInput,
    ) -> BackendFuture<'async_trait, UpdateItemOutput>
    where
        'life0: 'async_trait,
        Self: 'async_trait,
    {
        item::update_item(&self.sender, input)
    }

    #[inline]
    fn query<'life0, 'async_trait>(
        &'life0 self,
        input: QueryInput,
    ) -> BackendFuture<'async_trait, QueryOutput>
    where
        'life0: 'async_trait,
        Self: 'async_trait,
    {
        query::query(&self.sender, input, None, None)
    }

    /// The page's items converted attribute by attribute from the SDK's maps, without `Item`s.
    #[inline]
    fn query_into<'life0, 'life1, 'async_trait>(
        &'life0 self,
        input: QueryInput,
        sink: &'life1 mut dyn ItemSink,
    ) -> BackendFuture<'async_trait, QueryOutput>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        query::query(&self.sender, input, None, Some(sink))
    }

    /// The names and values built once, as the SDK's maps, from the placeholders' order.
    #[inline]
    fn query_numbered_into<'life0, 'life1, 'async_trait>(
        &'life0 self,
        input: QueryInput,
        attributes: NumberedAttributes,
        sink: &'life1 mut dyn ItemSink,
    ) -> BackendFuture<'async_trait, QueryOutput>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        query::query(&self.sender, input, Some(attributes), Some(sink))
    }

    fn scan<'life0, 'async_trait>(
        &'life0 self,
        input: ScanInput,
    ) -> BackendFuture<'async_trait, ScanOutput>
    where
        'life0: 'async_trait,
        Self: 'async_trait,
    {
        query::scan(&self.sender, input, None)
    }

    /// The page's items converted attribute by attribute from the SDK's maps, without `Item`s.
    fn scan_into<'life0, 'life1, 'async_trait>(
        &'life0 self,
        input: ScanInput,
        sink: &'life1 mut dyn ItemSink,
    ) -> BackendFuture<'async_trait, ScanOutput>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        query::scan(&self.sender, input, Some(sink))
    }

    async fn batch_get_item(&self, input: BatchGetItemInput) -> Result<BatchGetItemOutput> {
        batch::batch_get_item(&self.sender, input).await
    }

    async fn batch_write_item(&self, input: BatchWriteItemInput) -> Result<BatchWriteItemOutput> {
        batch::batch_write_item(&self.sender, input).await
    }

    async fn transact_get_items(
        &self,
        input: TransactGetItemsInput,
    ) -> Result<TransactGetItemsOutput> {
        transact::transact_get_items(&self.sender, input).await
    }

    async fn transact_write_items(
        &self,
        input: TransactWriteItemsInput,
    ) -> Result<TransactWriteItemsOutput> {
        transact::transact_write_items(&self.sender, input).await
    }

    async fn execute_statement(
        &self,
        input: ExecuteStatementInput,
    ) -> Result<ExecuteStatementOutput> {
        partiql::execute_statement(&self.sender, input).await
    }

    async fn batch_execute_statement(
        &self,
        input: BatchExecuteStatementInput,
    ) -> Result<BatchExecuteStatementOutput> {
        partiql::batch_execute_statement(&self.sender, input).await
    }

    async fn execute_transaction(
        &self,
        input: ExecuteTransactionInput,
    ) -> Result<ExecuteTransactionOutput> {
        partiql::execute_transaction(&self.sender, input).await
    }

    async fn update_table(&self, input: UpdateTableInput) -> Result<UpdateTableOutput> {
        schema::update_table(&self.sender, input).await
    }

    async fn update_time_to_live(
        &self,
        input: UpdateTimeToLiveInput,
    ) -> Result<UpdateTimeToLiveOutput> {
        schema::update_time_to_live(&self.sender, input).await
    }

    async fn describe_time_to_live(
        &self,
        input: DescribeTimeToLiveInput,
    ) -> Result<DescribeTimeToLiveOutput> {
        schema::describe_time_to_live(&self.sender, input).await
    }

    async fn tag_resource(&self, input: TagResourceInput) -> Result<TagResourceOutput> {
        schema::tag_resource(&self.sender, input).await
    }

    async fn untag_resource(&self, input: UntagResourceInput) -> Result<UntagResourceOutput> {
        schema::untag_resource(&self.sender, input).await
    }

    async fn list_tags_of_resource(
        &self,
        input: ListTagsOfResourceInput,
    ) -> Result<ListTagsOfResourceOutput> {
        schema::list_tags_of_resource(&self.sender, input).await
    }

    async fn create_backup(&self, input: CreateBackupInput) -> Result<CreateBackupOutput> {
        backup::create_backup(&self.sender, input).await
    }

    async fn describe_backup(&self, input: DescribeBackupInput) -> Result<DescribeBackupOutput> {
        backup::describe_backup(&self.sender, input).await
    }

    async fn list_backups(&self, input: ListBackupsInput) -> Result<ListBackupsOutput> {
        backup::list_backups(&self.sender, input).await
    }

    async fn delete_backup(&self, input: DeleteBackupInput) -> Result<DeleteBackupOutput> {
        backup::delete_backup(&self.sender, input).await
    }

    async fn restore_table_from_backup(
        &self,
        input: RestoreTableFromBackupInput,
    ) -> Result<RestoreTableFromBackupOutput> {
        backup::restore_table_from_backup(&self.sender, input).await
    }

    async fn describe_continuous_backups(
        &self,
        input: DescribeContinuousBackupsInput,
    ) -> Result<DescribeContinuousBackupsOutput> {
        backup::describe_continuous_backups(&self.sender, input).await
    }

    async fn update_continuous_backups(
        &self,
        input: UpdateContinuousBackupsInput,
    ) -> Result<UpdateContinuousBackupsOutput> {
        backup::update_continuous_backups(&self.sender, input).await
    }

    async fn restore_table_to_point_in_time(
        &self,
        input: RestoreTableToPointInTimeInput,
    ) -> Result<RestoreTableToPointInTimeOutput> {
        backup::restore_table_to_point_in_time(&self.sender, input).await
    }

    async fn describe_limits(&self, input: DescribeLimitsInput) -> Result<DescribeLimitsOutput> {
        schema::describe_limits(&self.sender, input).await
    }

    async fn describe_endpoints(
        &self,
        input: DescribeEndpointsInput,
    ) -> Result<DescribeEndpointsOutput> {
        schema::describe_endpoints(&self.sender, input).await
    }

    async fn list_streams(&self, input: ListStreamsInput) -> Result<ListStreamsOutput> {
        streams::list_streams(&self.streams, input).await
    }

    async fn describe_stream(&self, input: DescribeStreamInput) -> Result<DescribeStreamOutput> {
        streams::describe_stream(&self.streams, input).await
    }

    async fn get_shard_iterator(
        &self,
        input: GetShardIteratorInput,
    ) -> Result<GetShardIteratorOutput> {
        streams::get_shard_iterator(&self.streams, input).await
    }

    async fn get_records(&self, input: GetRecordsInput) -> Result<GetRecordsOutput> {
        streams::get_records(&self.streams, input).await
    }
}
