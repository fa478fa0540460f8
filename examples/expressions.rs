//! Expressions through the mapper: a create-only put, conditional updates with return values,
//! a projection, an atomic delete. Runs on the in-memory engine:
//! `cargo run -p dynomodel-examples --example expressions`.
//!
//! Every builder renders its expressions with `#n`/`:v` placeholders (values are never spliced into
//! the text), and a failed condition comes back as `Error::ConditionalCheckFailed` carrying the
//! stored item, decoded here with `Error::conditional_item`.

use std::collections::BTreeSet;

use dynomodel::Model;

/// A tweet, keyed by author and id.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "tweets")]
pub struct Tweet {
    /// Author (partition key).
    #[hash_key]
    pub userid: String,
    /// Tweet id, unique per author (sort key).
    #[range_key]
    pub id: String,
    /// The text.
    pub text: String,
    /// Number of likes.
    pub likes: i64,
    /// Number of retweets.
    pub retweets: i64,
    /// Hashtags (a string set).
    pub tags: BTreeSet<String>,
    /// Edit history, oldest first.
    pub history: Vec<String>,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let db = dynomodel_mem::memory();
    db.create_schema::<Tweet>().await?;

    let tweet = Tweet {
        userid: "abc".into(),
        id: "1".into(),
        text: "Hello, DynamoDB".into(),
        likes: 0,
        retweets: 0,
        tags: BTreeSet::from(["rust".to_owned()]),
        history: vec![],
    };

    // Create only: `attribute_not_exists(<hash key>)`. The second attempt fails, and the error
    // carries the tweet that is already there.
    db.put(&tweet).if_not_exists().await?;
    let mut impostor = tweet.clone();
    impostor.text = "not mine".into();
    match db.put(&impostor).if_not_exists().await {
        Ok(()) => println!("put: replaced (this engine does not evaluate conditions yet)"),
        Err(e) if e.is_conditional_check_failed() => {
            let existing: Option<Tweet> = e.conditional_item()?;
            println!(
                "put: refused, already stored: {:?}",
                existing.map(|t| t.text)
            );
        }
        Err(e) => return Err(e.into()),
    }

    // An update with several actions and a condition, returning the whole new item.
    let edited: Tweet = db
        .update::<Tweet>(("abc", "1"))
        .set(Tweet::text(), "Hello, typed DynamoDB")
        .append(Tweet::history(), vec![tweet.text.clone()])
        .add(Tweet::tags(), BTreeSet::from(["dynamodb".to_owned()]))
        .add(Tweet::likes(), 1)
        .condition(Tweet::text().eq(&tweet.text))
        .returning_new()
        .await?;
    println!(
        "update: \"{}\" with {} like(s), tags {:?}, history {:?}",
        edited.text, edited.likes, edited.tags, edited.history
    );

    // Only the updated attributes, as they are now: a typed `Partial<Tweet>`.
    let counters = db
        .update::<Tweet>(("abc", "1"))
        .incr(Tweet::retweets(), 2)
        .returning_updated_new()
        .await?;
    println!(
        "update: retweets now {:?}; text not returned: {:?}",
        counters.get(Tweet::retweets())?,
        counters.get(Tweet::text())?
    );

    // A condition that fails: the stored tweet comes back in the error.
    let refused = db
        .update::<Tweet>(("abc", "1"))
        .decr(Tweet::likes(), 1)
        .condition(Tweet::likes().gt(5))
        .await;
    if let Err(e) = refused {
        let stored: Option<Tweet> = e.conditional_item()?;
        println!(
            "update: refused ({}), likes stay at {:?}",
            e.code(),
            stored.map(|t| t.likes)
        );
    }

    // A projection reads some attributes, typed by their fields.
    if let Some(partial) = db
        .get::<Tweet>(("abc", "1"))
        .project((Tweet::likes(), Tweet::history().index(0)))
        .await?
    {
        println!(
            "get: likes {:?}, first history entry {:?}",
            partial.get(Tweet::likes())?,
            partial.get(Tweet::history().index(0))?
        );
    }

    // flywheel's atomic delete: only if the stored tweet is still the one in memory.
    let mut current = edited;
    db.refresh(&mut current).await?;
    db.delete(&current).atomic().await?;
    println!(
        "delete: gone = {}",
        db.get::<Tweet>(("abc", "1")).await?.is_none()
    );
    Ok(())
}
