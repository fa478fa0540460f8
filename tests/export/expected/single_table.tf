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
