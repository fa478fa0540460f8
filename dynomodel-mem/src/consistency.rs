//! Eventual consistency on demand, the engine's side: making every pending change visible at once
//! ([`MemBackend::settle`]). What is modelled, and how, is in `storage/consistency/`; the setting is
//! the builder's ([`MemBackendBuilder::eventual_consistency`](crate::MemBackendBuilder::eventual_consistency)).

use crate::MemBackend;

impl MemBackend {
    /// Makes every pending change visible at once, as if every delay of eventual consistency on
    /// demand had passed: every global secondary index holds each item's current version for every
    /// reader, and no read is stale. Changes written afterwards lag as before. Nothing to do for an
    /// engine without [`eventual_consistency`](crate::MemBackendBuilder::eventual_consistency).
    ///
    /// A test settles where its code would wait on DynamoDB, or to check what happens once the
    /// indexes have caught up, without moving the clock (which would also age TTL, tokens and
    /// table transitions).
    ///
    /// ```
    /// use dynomodel::{AttributeValue, Item};
    /// use dynomodel::backend::{
    ///     AttributeDefinition, Backend, BillingMode, CreateTableInput, GetItemInput,
    ///     KeySchemaElement, PutItemInput, ScalarAttributeType,
    /// };
    /// use dynomodel_mem::{EventualConsistency, MemBackend};
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let backend = MemBackend::builder()
    ///     .eventual_consistency(EventualConsistency::new())
    ///     .build();
    /// backend
    ///     .create_table(CreateTableInput {
    ///         table_name: "users".into(),
    ///         attribute_definitions: vec![AttributeDefinition {
    ///             attribute_name: "id".into(),
    ///             attribute_type: ScalarAttributeType::S,
    ///         }],
    ///         key_schema: vec![KeySchemaElement::hash("id")],
    ///         billing_mode: Some(BillingMode::PayPerRequest),
    ///         ..Default::default()
    ///     })
    ///     .await?;
    /// let key = Item::from([("id".to_owned(), AttributeValue::S("u1".into()))]);
    /// backend
    ///     .put_item(PutItemInput { table_name: "users".into(), item: key.clone(), ..Default::default() })
    ///     .await?;
    /// let get = GetItemInput { table_name: "users".into(), key, ..Default::default() };
    /// // Within a second of the write, an eventually consistent read may miss it (here it does) ...
    /// assert!(backend.get_item(get.clone()).await?.item.is_none());
    /// // ... unless everything has settled.
    /// backend.settle();
    /// assert!(backend.get_item(get).await?.item.is_some());
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn settle(&self) {
        self.write().settle();
    }
}
