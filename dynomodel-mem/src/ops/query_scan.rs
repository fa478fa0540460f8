//! The Query and Scan operations' entry points: a request's legacy parameters (`KeyConditions`,
//! `QueryFilter`, `ScanFilter`, …) translated into expressions, then the read layer's
//! [`query`](crate::read::query) or [`scan`](crate::read::scan) under the request's locks.

use dynomodel::backend::{ItemSink, QueryInput, QueryOutput, ScanInput, ScanOutput};
use dynomodel::Result;

use crate::expr::Given;
use crate::ops::context::ItemRequest;
use crate::ops::legacy::Taken;
use crate::read::{ReadParams, Source};

impl ItemRequest<'_> {
    /// `Query`, with its legacy members `taken` out of `input` ([`Taken::query`]).
    pub(crate) fn query(&self, input: &QueryInput, taken: Taken) -> Result<QueryOutput> {
        self.query_to(input, taken, None)
    }

    /// `Query`, its items handed to `sink` when there is one ([`typed`](crate::read::typed)).
    pub(crate) fn query_to(
        &self,
        input: &QueryInput,
        taken: Taken,
        sink: Option<&mut dyn ItemSink>,
    ) -> Result<QueryOutput> {
        let query_filter = taken.filter.is_some();
        let legacy = super::legacy::query(input, taken, || {
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
        .map_err(|e| super::legacy::query_error(query_filter, e))
    }

    /// `Scan`, with its legacy members `taken` out of `input` ([`Taken::scan`]).
    pub(crate) fn scan(&self, input: &ScanInput, taken: Taken) -> Result<ScanOutput> {
        self.scan_to(input, taken, None)
    }

    /// `Scan`, its items handed to `sink` when there is one ([`typed`](crate::read::typed)).
    pub(crate) fn scan_to(
        &self,
        input: &ScanInput,
        taken: Taken,
        sink: Option<&mut dyn ItemSink>,
    ) -> Result<ScanOutput> {
        let legacy = super::legacy::scan(input, taken)?;
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
