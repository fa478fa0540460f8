//! UpdateTable, DescribeLimits and DescribeEndpoints.

use dynomodel::{
    DescribeEndpointsInput, DescribeEndpointsOutput, DescribeLimitsInput, DescribeLimitsOutput,
    Error, Result, UpdateTableInput, UpdateTableOutput,
};

use crate::state::State;

// SCAFFOLD: the engine-update helper replaces these.
impl State {
    /// `UpdateTable`.
    pub fn update_table(&mut self, _input: UpdateTableInput) -> Result<UpdateTableOutput> {
        Err(Error::validation("SCAFFOLD"))
    }

    /// `DescribeLimits`.
    pub fn describe_limits(&self, _input: &DescribeLimitsInput) -> Result<DescribeLimitsOutput> {
        Err(Error::validation("SCAFFOLD"))
    }

    /// `DescribeEndpoints`.
    pub fn describe_endpoints(
        &self,
        _input: &DescribeEndpointsInput,
    ) -> Result<DescribeEndpointsOutput> {
        Err(Error::validation("SCAFFOLD"))
    }
}
