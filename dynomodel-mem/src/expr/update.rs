//! Applying an UpdateExpression to an item.
