//! What requests cost: [`CapacityExt::with_capacity`] on any request (or
//! [`StreamCapacityExt::with_capacity`] on a stream of results) for one operation's
//! [`Consumed`], and the [`Meter`] of running totals every [`Db`](crate::Db) keeps; both fed by
//! [`Calls`], the boundary between the mapper and its backend, which also wraps every request in a
//! `tracing` span.

mod calls;
mod consumed;
mod meter;
mod scope;

pub(crate) use calls::Calls;
pub use consumed::Consumed;
pub use meter::Meter;
pub use scope::{CapacityExt, CapacityStream, StreamCapacityExt, WithCapacity};

#[cfg(test)]
mod fake;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_tracing;
