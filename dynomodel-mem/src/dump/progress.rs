//! What a long export, import or seed reports as it goes: the `dynomodel-mem` command line draws it
//! as a progress bar when standard error is a terminal. The public functions report to [`Silent`].

/// Receives a transfer's progress. Called once per batch or page (25 to a few hundred items), never
/// per item, so that a silent observer costs nothing measurable.
pub(crate) trait Progress: Sync {
    /// A stage begins (`checking users`, `writing users`, `exporting users`): `items` is how many it
    /// will move, when known.
    fn stage(&self, what: &str, items: Option<u64>);

    /// `items` more items of the current stage are done.
    fn advance(&self, items: u64);
}

/// Progress reported to nobody: what the public functions pass.
pub(crate) struct Silent;

impl Progress for Silent {
    fn stage(&self, _: &str, _: Option<u64>) {}

    fn advance(&self, _: u64) {}
}
