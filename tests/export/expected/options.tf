resource "aws_dynamodb_table" "audit-log_v2" {
  name                        = "audit-log.v2"
  billing_mode                = "PAY_PER_REQUEST"
  hash_key                    = "account"
  range_key                   = "at"
  table_class                 = "STANDARD_INFREQUENT_ACCESS"
  deletion_protection_enabled = true
  stream_enabled              = true
  stream_view_type            = "NEW_AND_OLD_IMAGES"

  attribute {
    name = "account"
    type = "S"
  }

  attribute {
    name = "at"
    type = "N"
  }

  attribute {
    name = "amount"
    type = "N"
  }

  local_secondary_index {
    name               = "by-amount"
    range_key          = "amount"
    projection_type    = "INCLUDE"
    non_key_attributes = ["actor"]
  }

  ttl {
    attribute_name = "expires"
    enabled        = true
  }

  point_in_time_recovery {
    enabled                 = true
    recovery_period_in_days = 7
  }

  tags = {
    "team"        = "payments"
    "cost-center" = "42"
    "owner:email" = "ops team"
  }
}
