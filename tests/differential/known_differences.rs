//! Where DynamoDB Local deviates from Amazon DynamoDB's documented behaviour, the engine follows the
//! documentation. Each accepted deviation is listed here, with the two answers it reconciles.

use crate::gen::Op;
use crate::runner::Answer;

/// Whether `engine` and `local` differ only by a documented DynamoDB Local deviation.
pub fn reconcile(_op: &Op, engine: &Answer, local: &Answer) -> bool {
    match (engine, local) {
        (
            Answer::Err {
                code: a,
                message: m,
            },
            Answer::Err {
                code: b,
                message: n,
            },
        ) if a == b => {
            // ResourceNotFoundException: real DynamoDB says "Requested resource not found"
            // (API reference, error examples); DynamoDB Local says "Cannot do operations on a
            // non-existent table".
            a == "ResourceNotFoundException"
                && m == "Requested resource not found"
                && n == "Cannot do operations on a non-existent table"
        }
        _ => false,
    }
}
