//! DescribeLimits and DescribeEndpoints on the wire: requests without members, DynamoDB's response
//! shapes (DynamoDB Local 3.3.1's raw DescribeLimits answer, probed:
//! `{"AccountMaxReadCapacityUnits":80000,"AccountMaxWriteCapacityUnits":80000,
//! "TableMaxReadCapacityUnits":40000,"TableMaxWriteCapacityUnits":40000}`).
//!
//! DescribeEndpoints is how SDKs with endpoint discovery learn where to send requests: the backend
//! answers its region's public endpoint (`dynamodb.<region>.amazonaws.com`), which would send such a
//! client away from this server, so the server's own address ([`Context::endpoint`]) replaces every
//! address when it is known.

use dynomodel::backend::{Backend, DescribeEndpointsInput, DescribeLimitsInput};
use serde_json::{json, Map, Value};

use super::Context;
use super::WireResult;

pub(super) async fn describe_limits(
    backend: &dyn Backend,
    _request: &Map<String, Value>,
) -> WireResult<Value> {
    let out = backend.describe_limits(DescribeLimitsInput {}).await?;
    Ok(json!({
        "AccountMaxReadCapacityUnits": out.account_max_read_capacity_units,
        "AccountMaxWriteCapacityUnits": out.account_max_write_capacity_units,
        "TableMaxReadCapacityUnits": out.table_max_read_capacity_units,
        "TableMaxWriteCapacityUnits": out.table_max_write_capacity_units,
    }))
}

pub(super) async fn describe_endpoints(
    context: &Context,
    backend: &dyn Backend,
    _request: &Map<String, Value>,
) -> WireResult<Value> {
    let out = backend
        .describe_endpoints(DescribeEndpointsInput {})
        .await?;
    let endpoints: Vec<Value> = out
        .endpoints
        .iter()
        .map(|e| {
            let address = context.endpoint.as_deref().unwrap_or(&e.address);
            json!({ "Address": address, "CachePeriodInMinutes": e.cache_period_in_minutes })
        })
        .collect();
    Ok(json!({ "Endpoints": endpoints }))
}
