//! [`Meter`]: the running totals a [`Db`](crate::Db) keeps of the capacity its requests consumed.

use std::sync::{Mutex, PoisonError};

use super::consumed::{Consumed, Kind};
use crate::backend::ConsumedCapacity;

/// Running totals, per table (and per index), of the capacity every request of a [`Db`](crate::Db)
/// consumed, as far as the responses reported it: [`Db::meter`](crate::Db::meter).
///
/// A plain `Db` asks for no capacity, so its meter counts only the requests that asked
/// (`.with_capacity()`); [`Db::with_meter`](crate::Db::with_meter) makes every request ask, which is
/// what a test of cost wants. Clones of a `Db` share its meter. One short lock per response that
/// reports capacity; nothing otherwise.
///
/// ```
/// use dynomodel::{Db, Model};
/// use dynomodel_mem::MemoryDb;
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// #[dynomodel(table = "users")]
/// struct User { #[hash_key] id: String, name: String }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let db = Db::memory().with_meter();
/// db.create_schema::<User>().await?;
/// db.put(&User { id: "u1".into(), name: "Ada".into() }).await?;
/// db.meter().reset();
///
/// db.get::<User>("u1").await?; // the page view under test
/// let cost = db.meter().consumed();
/// assert!(cost.read_units() <= 3.0, "this page view costs at most 3 RCU");
/// assert_eq!((cost.read_units(), cost.write_units()), (0.5, 0.0));
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Default)]
pub struct Meter {
    totals: Mutex<Consumed>,
}

impl Meter {
    /// The totals so far, per table.
    pub fn consumed(&self) -> Consumed {
        self.lock().clone()
    }

    /// One table's total so far (the full name: [`Db::table_name`](crate::Db::table_name)).
    pub fn table(&self, name: &str) -> Option<ConsumedCapacity> {
        self.lock().table(name).cloned()
    }

    /// All read units so far.
    pub fn read_units(&self) -> f64 {
        self.lock().read_units()
    }

    /// All write units so far.
    pub fn write_units(&self) -> f64 {
        self.lock().write_units()
    }

    /// Starts again from zero.
    pub fn reset(&self) {
        *self.lock() = Consumed::default();
    }

    /// The totals so far, starting again from zero (one step, so no request is lost in between).
    pub fn take(&self) -> Consumed {
        std::mem::take(&mut *self.lock())
    }

    pub(crate) fn record(&self, kind: Kind, reported: &[ConsumedCapacity]) {
        self.lock().add(kind, reported);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Consumed> {
        // The totals stay consistent whatever panicked while holding the lock: `add` only adds.
        self.totals.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
