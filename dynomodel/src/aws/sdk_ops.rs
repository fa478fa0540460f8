//! The SDK's own request serializers and response deserializers of the operations the page hook
//! wraps (`page_hook`, `request_body`): the ones each operation's runtime plugin stores. The
//! plugins are public, their serializers and deserializers are not, and the config bag lends the
//! ones it holds only by reference, so each plugin's configuration is made once and kept.

use std::sync::OnceLock;

use aws_sdk_dynamodb::operation::{get_item::GetItem, put_item::PutItem, query::Query, scan::Scan};
use aws_smithy_runtime_api::client::runtime_plugin::RuntimePlugin;
use aws_smithy_runtime_api::client::ser_de::{SharedRequestSerializer, SharedResponseDeserializer};
use aws_smithy_types::config_bag::FrozenLayer;

/// The configuration operation `op`'s runtime plugin stores, if `op` is one the hook wraps.
fn config(op: &str) -> Option<&'static FrozenLayer> {
    static QUERY: OnceLock<Option<FrozenLayer>> = OnceLock::new();
    static SCAN: OnceLock<Option<FrozenLayer>> = OnceLock::new();
    static GET_ITEM: OnceLock<Option<FrozenLayer>> = OnceLock::new();
    static PUT_ITEM: OnceLock<Option<FrozenLayer>> = OnceLock::new();
    let layer = match op {
        "Query" => QUERY.get_or_init(|| Query::new().config()),
        "Scan" => SCAN.get_or_init(|| Scan::new().config()),
        "GetItem" => GET_ITEM.get_or_init(|| GetItem::new().config()),
        "PutItem" => PUT_ITEM.get_or_init(|| PutItem::new().config()),
        _ => return None,
    };
    layer.as_ref()
}

/// The SDK's response deserializer of `op` (Query, Scan, GetItem or PutItem).
pub(crate) fn deserializer(op: &str) -> Option<&'static SharedResponseDeserializer> {
    config(op)?.load::<SharedResponseDeserializer>()
}

/// The SDK's request serializer of `op` (Query, Scan, GetItem or PutItem).
pub(crate) fn serializer(op: &str) -> Option<&'static SharedRequestSerializer> {
    config(op)?.load::<SharedRequestSerializer>()
}
