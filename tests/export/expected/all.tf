resource "aws_dynamodb_table" "app" {
  name         = "app"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "pk"
  range_key    = "sk"

  attribute {
    name = "pk"
    type = "S"
  }

  attribute {
    name = "sk"
    type = "S"
  }

  attribute {
    name = "gpk"
    type = "S"
  }

  global_secondary_index {
    name            = "by-status"
    hash_key        = "gpk"
    range_key       = "sk"
    projection_type = "ALL"
  }
}

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

resource "aws_dynamodb_table" "sessions" {
  name         = "sessions"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "user"
  range_key    = "id"

  attribute {
    name = "user"
    type = "S"
  }

  attribute {
    name = "id"
    type = "S"
  }

  attribute {
    name = "device"
    type = "S"
  }

  global_secondary_index {
    name            = "by-device"
    hash_key        = "device"
    projection_type = "KEYS_ONLY"
  }

  ttl {
    attribute_name = "expires"
    enabled        = true
  }

  tags = {
    "team" = "auth"
  }
}

resource "aws_dynamodb_table" "tweets" {
  name           = "tweets"
  billing_mode   = "PROVISIONED"
  read_capacity  = 10
  write_capacity = 2
  hash_key       = "userid"
  range_key      = "id"

  attribute {
    name = "userid"
    type = "S"
  }

  attribute {
    name = "id"
    type = "S"
  }

  attribute {
    name = "ts"
    type = "S"
  }

  attribute {
    name = "retweets"
    type = "N"
  }

  attribute {
    name = "likes"
    type = "N"
  }

  attribute {
    name = "city"
    type = "S"
  }

  global_secondary_index {
    name            = "ts-index"
    hash_key        = "city"
    range_key       = "ts"
    projection_type = "ALL"
    read_capacity   = 10
    write_capacity  = 2
  }

  global_secondary_index {
    name            = "rt-index"
    hash_key        = "city"
    range_key       = "retweets"
    projection_type = "KEYS_ONLY"
    read_capacity   = 10
    write_capacity  = 2
  }

  global_secondary_index {
    name               = "like-index"
    hash_key           = "city"
    range_key          = "likes"
    projection_type    = "INCLUDE"
    non_key_attributes = ["text"]
    read_capacity      = 10
    write_capacity     = 2
  }

  local_secondary_index {
    name            = "ts-local"
    range_key       = "ts"
    projection_type = "ALL"
  }

  local_secondary_index {
    name            = "rt-local"
    range_key       = "retweets"
    projection_type = "KEYS_ONLY"
  }

  local_secondary_index {
    name               = "like-local"
    range_key          = "likes"
    projection_type    = "INCLUDE"
    non_key_attributes = ["text"]
  }
}
