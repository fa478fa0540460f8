//! The SDK workload: a 20-item partition, then phases of sequential PutItem, GetItem and Query (of the
//! whole partition) and of GetItem with 16 requests in flight, each run for a fixed time.

use std::sync::Arc;
use std::time::{Duration, Instant};

use dynomodel::backend::{
    AttributeDefinition, Backend, BillingMode, CreateTableInput, DeleteTableInput, GetItemInput,
    KeySchemaElement, PutItemInput, QueryInput, ScalarAttributeType,
};
use dynomodel::{AttributeValue, AwsBackend, Error, Item};

/// Items in the benchmark's one partition; every Query returns all of them.
pub(crate) const ITEMS: usize = 20;
/// Requests in flight in [`Phase::ConcurrentGet`].
pub(crate) const IN_FLIGHT: usize = 16;

/// One measured kind of traffic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    Put,
    Get,
    Query,
    ConcurrentGet,
}

impl Phase {
    pub(crate) const ALL: [Phase; 4] = [Phase::Put, Phase::Get, Phase::Query, Phase::ConcurrentGet];

    pub(crate) fn label(self) -> &'static str {
        match self {
            Phase::Put => "PutItem (sequential)",
            Phase::Get => "GetItem (sequential)",
            Phase::Query => "Query 20 items (seq.)",
            Phase::ConcurrentGet => "GetItem (16 in flight)",
        }
    }

    pub(crate) fn short_label(self) -> &'static str {
        match self {
            Phase::Put => "Put",
            Phase::Get => "Get",
            Phase::Query => "Query",
            Phase::ConcurrentGet => "16-in-flight Get",
        }
    }
}

/// A table on one server, reached through the SDK.
#[derive(Clone)]
pub(crate) struct Target {
    backend: Arc<AwsBackend>,
    table: String,
}

fn key(i: usize) -> Item {
    [
        ("pk".to_owned(), AttributeValue::S("bench".into())),
        ("sk".to_owned(), AttributeValue::N((i as u32).into())),
    ]
    .into()
}

impl Target {
    /// Creates the benchmark table (with its 20 items) on the server at `endpoint`.
    pub(crate) async fn create(endpoint: &str, table: String) -> Result<Target, Error> {
        let definition = |name: &str, ty| AttributeDefinition {
            attribute_name: name.into(),
            attribute_type: ty,
        };
        let backend = Arc::new(AwsBackend::local(endpoint));
        backend
            .create_table(CreateTableInput {
                table_name: table.clone(),
                attribute_definitions: vec![
                    definition("pk", ScalarAttributeType::S),
                    definition("sk", ScalarAttributeType::N),
                ],
                key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("sk")],
                billing_mode: Some(BillingMode::PayPerRequest),
                ..Default::default()
            })
            .await?;
        let target = Target { backend, table };
        for i in 0..ITEMS {
            target.put(i).await?;
        }
        Ok(target)
    }

    pub(crate) async fn delete(self) -> Result<(), Error> {
        self.backend
            .delete_table(DeleteTableInput {
                table_name: self.table,
            })
            .await?;
        Ok(())
    }

    async fn put(&self, i: usize) -> Result<(), Error> {
        let mut item = key(i);
        item.insert("payload".into(), AttributeValue::S("x".repeat(100)));
        self.backend
            .put_item(PutItemInput {
                table_name: self.table.clone(),
                item,
                ..Default::default()
            })
            .await?;
        Ok(())
    }

    async fn get(&self, i: usize) -> Result<(), Error> {
        let found = self
            .backend
            .get_item(GetItemInput {
                table_name: self.table.clone(),
                key: key(i),
                ..Default::default()
            })
            .await?;
        match found.item {
            Some(_) => Ok(()),
            None => Err(Error::validation(format!("item {i} is missing"))),
        }
    }

    async fn query(&self) -> Result<(), Error> {
        let page = self
            .backend
            .query(QueryInput {
                table_name: self.table.clone(),
                key_condition_expression: Some("pk = :pk".into()),
                expression_attribute_values: Some(
                    [(":pk".to_owned(), AttributeValue::S("bench".into()))].into(),
                ),
                ..Default::default()
            })
            .await?;
        match page.count as usize {
            ITEMS => Ok(()),
            n => Err(Error::validation(format!("query returned {n} items"))),
        }
    }

    /// Request `i` (of the 20 items) of `phase`.
    async fn request(&self, phase: Phase, i: usize) -> Result<(), Error> {
        match phase {
            Phase::Put => self.put(i).await,
            Phase::Get | Phase::ConcurrentGet => self.get(i).await,
            Phase::Query => self.query().await,
        }
    }

    /// Runs `phase` for `duration`: one request at a time, or [`IN_FLIGHT`] at a time for
    /// [`Phase::ConcurrentGet`] (the same shape as [`crate::raw::RawTarget::run`]). Returns the
    /// requests made and the time they took.
    pub(crate) async fn run(
        &self,
        phase: Phase,
        duration: Duration,
    ) -> Result<(usize, Duration), Error> {
        let started = Instant::now();
        let deadline = started + duration;
        let in_flight = if phase == Phase::ConcurrentGet {
            IN_FLIGHT
        } else {
            1
        };
        let workers: Vec<_> = (0..in_flight)
            .map(|w| {
                let target = self.clone();
                tokio::spawn(async move {
                    let mut requests = 0;
                    while Instant::now() < deadline {
                        target.request(phase, (w + requests) % ITEMS).await?;
                        requests += 1;
                    }
                    Ok::<usize, Error>(requests)
                })
            })
            .collect();
        let mut requests = 0;
        for worker in workers {
            requests += worker
                .await
                .map_err(|e| Error::Transport(format!("worker: {e}")))??;
        }
        Ok((requests, started.elapsed()))
    }
}
