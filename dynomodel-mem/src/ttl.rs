//! Time to Live: UpdateTimeToLive, DescribeTimeToLive and the sweep that deletes expired items.

use dynomodel::{
    DescribeTimeToLiveInput, DescribeTimeToLiveOutput, Error, Result, UpdateTimeToLiveInput,
    UpdateTimeToLiveOutput,
};

use crate::state::State;

// SCAFFOLD: the engine-ttl-tags helper replaces these.
impl State {
    /// `UpdateTimeToLive`.
    pub fn update_time_to_live(
        &mut self,
        _input: &UpdateTimeToLiveInput,
    ) -> Result<UpdateTimeToLiveOutput> {
        Err(Error::validation("SCAFFOLD"))
    }

    /// `DescribeTimeToLive`.
    pub fn describe_time_to_live(
        &self,
        _input: &DescribeTimeToLiveInput,
    ) -> Result<DescribeTimeToLiveOutput> {
        Err(Error::validation("SCAFFOLD"))
    }

    /// Deletes expired items; returns how many.
    pub fn sweep_expired(&mut self) -> usize {
        0
    }
}
