//! The Query and Scan operations' entry points: a request's legacy parameters (`KeyConditions`,
//! `QueryFilter`, `ScanFilter`, …) translated into expressions, then the read layer's
//! [`query`](crate::read::query) or [`scan`](crate::read::scan) under the request's locks.

use dynomodel::backend::{ItemSink, QueryInput, QueryOutput, ScanInput, ScanOutput};
use dynomodel::Result;

use crate::expr::Given;
use crate::ops::context::ItemRequest;
use crate::read::{ReadParams, Source};

impl ItemRequest<'_> {
    /// `Query`.
    pub(crate) fn query(&self, input: &QueryInput) -> Result<QueryOutput> {
        self.query_to(input, None)
    }

    /// `Query`, its items handed to `sink` when there is one ([`typed`](crate::read::typed)).
    pub(crate) fn query_to(
        &self,
        input: &QueryInput,
        sink: Option<&mut dyn ItemSink>,
    ) -> Result<QueryOutput> {
        let legacy = super::legacy::query(input, || {
            let table = self.table(&input.table_name).ok()?;
            let source =
                Source::find(table, input.index_name.as_deref(), self.clock().now()).ok()?;
            Some(source.key_schema())
        })?;
        let params = ReadParams {
            key_condition: Given::either(
                legacy.key_condition,
                input.key_condition_expression.as_deref(),
            ),
            filter: Given::either(legacy.filter, input.filter_expression.as_deref()),
            projection: Given::either(legacy.projection, input.projection_expression.as_deref()),
        };
        crate::read::query::query(
            input,
            params,
            self.clock().now(),
            |name| self.table(name),
            self.meter(),
            sink,
        )
        .map_err(|e| super::legacy::query_error(input, e))
    }

    /// `Scan`.
    pub(crate) fn scan(&self, input: &ScanInput) -> Result<ScanOutput> {
        self.scan_to(input, None)
    }

    /// `Scan`, its items handed to `sink` when there is one ([`typed`](crate::read::typed)).
    pub(crate) fn scan_to(
        &self,
        input: &ScanInput,
        sink: Option<&mut dyn ItemSink>,
    ) -> Result<ScanOutput> {
        let legacy = super::legacy::scan(input)?;
        let params = ReadParams {
            key_condition: None,
            filter: Given::either(legacy.filter, input.filter_expression.as_deref()),
            projection: Given::either(legacy.projection, input.projection_expression.as_deref()),
        };
        crate::read::scan::scan(
            input,
            params,
            self.clock().now(),
            |name| self.table(name),
            self.meter(),
            sink,
        )
    }
}
