//! `describe`: the live tables, as [`LiveTable`](crate::migrate::LiveTable)'s `Display` prints them.

use clap::Args;

use crate::backend::ListTablesInput;
use crate::cli::connect::Connection;
use crate::cli::output::Output;
use crate::cli::Status;
use crate::db::Db;
use crate::error::Result;
use crate::migrate::Models;

/// `describe`'s options.
#[derive(Debug, Clone, Args)]
pub struct DescribeArgs {
    /// Where the tables live.
    #[command(flatten)]
    pub connection: Connection,
    /// The tables, namespace included (default: the models' tables, or every table for the
    /// standalone binary).
    #[arg(value_name = "TABLE")]
    pub tables: Vec<String>,
}

/// Every table name ListTables gives, page by page.
async fn all_tables(db: &Db) -> Result<Vec<String>> {
    let mut names = Vec::new();
    let mut start = None;
    loop {
        let page = db
            .backend()
            .list_tables(ListTablesInput {
                exclusive_start_table_name: start,
                limit: None,
            })
            .await?;
        names.extend(page.table_names);
        match page.last_evaluated_table_name {
            Some(last) => start = Some(last),
            None => return Ok(names),
        }
    }
}

async fn table_names(models: Option<&Models>, args: &DescribeArgs, db: &Db) -> Result<Vec<String>> {
    if !args.tables.is_empty() {
        return Ok(args.tables.clone());
    }
    match models {
        Some(models) => Ok(models
            .definitions()?
            .iter()
            .map(|d| format!("{}{}", args.connection.namespace, d.table_name()))
            .collect()),
        None => {
            let names = all_tables(db).await?;
            Ok(names
                .into_iter()
                .filter(|name| name.starts_with(&args.connection.namespace))
                .collect())
        }
    }
}

pub(crate) async fn run(models: Option<&Models>, args: &DescribeArgs, output: &Output) -> Status {
    let result = async {
        let db = args.connection.db().await;
        let names = table_names(models, args, &db).await?;
        let mut missing = Vec::new();
        let mut text = String::new();
        for name in &names {
            match db.live_table(name).await? {
                Some(live) => text.push_str(&format!("{live}\n")),
                None => {
                    text.push_str(&format!("table {name}: does not exist\n"));
                    missing.push(name.clone());
                }
            }
        }
        if names.is_empty() {
            text.push_str("no tables\n");
        }
        Ok::<_, crate::Error>((text, missing))
    }
    .await;
    match result {
        Ok((text, missing)) => {
            if !output.print(&text) {
                return Status::Failed;
            }
            if missing.is_empty() {
                Status::Success
            } else {
                output.error(&format!("no such table: {}", missing.join(", ")));
                Status::Failed
            }
        }
        Err(e) => {
            output.error(&e.to_string());
            Status::Failed
        }
    }
}
