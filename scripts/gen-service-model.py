#!/usr/bin/env python3
"""Generates dynomodel-mem/src/protocol/model/generated.rs from botocore's service models.

Usage: scripts/gen-service-model.py [OUTPUT]   (default: the checked-in file; "-" for stdout)

Reads botocore's `dynamodb` and `dynamodbstreams` service-2.json.gz (found through the `botocore`
package of the running python3, or the BOTOCORE_DATA directory) and writes, for each service, every
operation with its input shape and every shape reachable from an input, as static Rust tables that the
wire layer's request validator walks (see model/mod.rs). Standard library only.

Three things are not in the model and are added here, each with its source:
- ENUM_ORDER: the order in which the service lists some enums' values in "Member must satisfy enum value
  set: [...]" (its Java set's order, not the model's), as recorded against the service.
- MEMBER_ORDER: the order in which the service reports the members of some structures, likewise.
- REQUIRED_EXTRA: members the service requires that the model no longer marks required.
Every other enum and structure keeps the model's order.
"""

import gzip
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUTPUT = os.path.join(
    HERE, "..", "dynomodel-mem", "src", "server", "wire", "model", "generated.rs"
)

# Value sets as DynamoDB prints them, recorded against the service in dynalite's tests
# (test/query.js, test/scan.js, test/updateItem.js, test/createTable.js) and kept by the wire layer
# before this table existed.
ENUM_ORDER = {
    "dynamodb": {
        "Select": ["SPECIFIC_ATTRIBUTES", "COUNT", "ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES"],
        "ReturnValue": ["ALL_NEW", "UPDATED_OLD", "ALL_OLD", "NONE", "UPDATED_NEW"],
        "ComparisonOperator": [
            "IN", "NULL", "BETWEEN", "LT", "NOT_CONTAINS", "EQ", "GT", "NOT_NULL", "NE", "LE",
            "BEGINS_WITH", "GE", "CONTAINS",
        ],
        "ConditionalOperator": ["OR", "AND"],
        "ScalarAttributeType": ["B", "N", "S"],
        "ProjectionType": ["ALL", "INCLUDE", "KEYS_ONLY"],
    },
    "dynamodbstreams": {},
}

# Members reported first, in this order (the rest follow in the model's order). Sources: dynalite's
# test/putItem.js, deleteItem.js, batchWriteItem.js, batchGetItem.js and transactWriteItems.js,
# recorded against the service (the wire decoders followed the same recordings).
MEMBER_ORDER = {
    "dynamodb": {
        "PutItemInput": ["ReturnConsumedCapacity", "TableName", "Item", "ReturnValues",
                         "ReturnItemCollectionMetrics"],
        "DeleteItemInput": ["ReturnConsumedCapacity", "TableName", "ReturnValues",
                            "ReturnItemCollectionMetrics", "Key"],
        "UpdateItemInput": ["ReturnConsumedCapacity", "TableName", "ReturnValues",
                            "ReturnItemCollectionMetrics", "Key"],
        "GetItemInput": ["ReturnConsumedCapacity"],
        "QueryInput": ["ReturnConsumedCapacity"],
        "ScanInput": ["ReturnConsumedCapacity"],
        "BatchWriteItemInput": ["ReturnConsumedCapacity", "ReturnItemCollectionMetrics",
                                "RequestItems"],
        "BatchGetItemInput": ["ReturnConsumedCapacity", "RequestItems"],
        "WriteRequest": ["DeleteRequest", "PutRequest"],
        "TransactWriteItemsInput": ["ReturnConsumedCapacity", "ReturnItemCollectionMetrics"],
        "TransactGetItemsInput": ["ReturnConsumedCapacity"],
        "TransactWriteItem": ["Update", "Delete", "Put", "ConditionCheck"],
        # "DynamoDB lists write before read in its messages" (dynalite's test/createTable.js and
        # updateTable.js).
        "ProvisionedThroughput": ["WriteCapacityUnits", "ReadCapacityUnits"],
    },
    "dynamodbstreams": {},
}


# Members the service requires though the model no longer marks them required (dynalite's
# test/createTable.js and updateTable.js, recorded against the service: "Value null at
# 'attributeDefinitions'", "Value null at 'keySchema'", "Value null at
# 'globalSecondaryIndexUpdates.1.member.update.provisionedThroughput'").
REQUIRED_EXTRA = {
    "dynamodb": {
        "CreateTableInput": ["AttributeDefinitions", "KeySchema"],
        "UpdateGlobalSecondaryIndexAction": ["ProvisionedThroughput"],
    },
    "dynamodbstreams": {},
}


def model_path(service):
    base = os.environ.get("BOTOCORE_DATA")
    if not base:
        import botocore  # noqa: PLC0415 (only needed when BOTOCORE_DATA is not given)

        base = os.path.join(os.path.dirname(botocore.__file__), "data")
    return os.path.join(base, service, "2012-08-10", "service-2.json.gz")


def load(service):
    with gzip.open(model_path(service), "rt", encoding="utf-8") as f:
        return json.load(f)


def rust_str(text):
    """A Rust string literal (raw when the text has a backslash or a quote)."""
    if "\\" in text or '"' in text:
        hashes = "#"
        while '"' + hashes in text:
            hashes += "#"
        return "r" + hashes + '"' + text + '"' + hashes
    return '"' + text + '"'


def opt(value):
    return "None" if value is None else "Some(%d)" % value


def bounds(shape):
    return "Bounds { min: %s, max: %s }" % (opt(shape.get("min")), opt(shape.get("max")))


def reachable(model):
    """Shape names reachable from the operations' inputs, in first-visit order."""
    shapes = model["shapes"]
    seen = []
    index = {}

    def walk(name):
        if name in index:
            return
        index[name] = len(seen)
        seen.append(name)
        shape = shapes[name]
        for member in shape.get("members", {}).values():
            walk(member["shape"])
        for part in ("member", "key", "value"):
            if part in shape:
                walk(shape[part]["shape"])

    for op in sorted(model["operations"]):
        inp = model["operations"][op].get("input")
        if inp:
            walk(inp["shape"])
    return seen, index


def ordered_members(service, name, shape):
    members = list(shape["members"])
    first = MEMBER_ORDER[service].get(name, [])
    for m in first:
        assert m in members, (name, m)
    return first + [m for m in members if m not in first]


def enum_values(service, name, shape):
    values = shape["enum"]
    override = ENUM_ORDER[service].get(name)
    if override is None:
        return values
    assert sorted(override) == sorted(values), (name, override, values)
    return override


def kind(service, name, shape, index):
    t = shape["type"]
    if t == "structure":
        required = set(shape.get("required", [])) | set(REQUIRED_EXTRA[service].get(name, []))
        parts = []
        for m in ordered_members(service, name, shape):
            parts.append(
                "Member { name: %s, shape: %d, required: %s }"
                % (rust_str(m), index[shape["members"][m]["shape"]], str(m in required).lower())
            )
        if not parts:
            return "Kind::Structure(&[])"
        return "Kind::Structure(&[\n            %s,\n        ])" % ",\n            ".join(parts)
    if t == "list":
        return "Kind::List { member: %d, length: %s }" % (index[shape["member"]["shape"]], bounds(shape))
    if t == "map":
        return "Kind::Map { key: %d, value: %d, length: %s }" % (
            index[shape["key"]["shape"]],
            index[shape["value"]["shape"]],
            bounds(shape),
        )
    if t == "string":
        pattern = shape.get("pattern")
        values = enum_values(service, name, shape) if "enum" in shape else []
        return "Kind::String { length: %s, pattern: %s, values: &[%s] }" % (
            bounds(shape),
            "None" if pattern is None else "Some(%s)" % rust_str(pattern),
            ", ".join(rust_str(v) for v in values),
        )
    if t == "integer":
        return "Kind::Integer(%s)" % bounds(shape)
    if t == "long":
        return "Kind::Long(%s)" % bounds(shape)
    simple = {"boolean": "Boolean", "blob": "Blob", "double": "Double", "timestamp": "Timestamp"}
    return "Kind::" + simple[t]


def service_table(service, const, doc):
    model = load(service)
    names, index = reachable(model)
    out = []
    out.append("/// %s" % doc)
    out.append("pub(crate) static %s: Service = Service {" % const)
    out.append("    operations: &[")
    for op in sorted(model["operations"]):
        inp = model["operations"][op].get("input")
        out.append(
            "        (%s, %s),"
            % (rust_str(op), "None" if not inp else "Some(%d)" % index[inp["shape"]])
        )
    out.append("    ],")
    out.append("    shapes: &[")
    for i, name in enumerate(names):
        shape = model["shapes"][name]
        out.append("        // %d" % i)
        out.append("        Shape {")
        out.append("            name: %s," % rust_str(name))
        out.append("            kind: %s," % kind(service, name, shape, index).replace("\n", "\n    "))
        out.append("        },")
    out.append("    ],")
    out.append("};")
    return "\n".join(out)


def generate():
    parts = [
        "// @generated by scripts/gen-service-model.py from botocore's dynamodb and dynamodbstreams",
        "// service-2.json.gz: do not edit by hand; run the script again (a test compares its output",
        "// with this file).",
        "",
        "//! The service models' operations and input shapes as static tables (see `super`).",
        "",
        "use super::{Bounds, Kind, Member, Service, Shape};",
        "",
        service_table("dynamodb", "DYNAMODB", "DynamoDB's operations and the shapes of their inputs."),
        "",
        service_table(
            "dynamodbstreams",
            "DYNAMODB_STREAMS",
            "DynamoDB Streams' operations and the shapes of their inputs.",
        ),
        "",
    ]
    return "\n".join(parts)


def main():
    output = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_OUTPUT
    text = generate()
    if output == "-":
        sys.stdout.write(text)
    else:
        with open(output, "w", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    main()
