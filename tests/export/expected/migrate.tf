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
