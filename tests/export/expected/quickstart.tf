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
